import type { CoreContext } from "../core/context.js";
import { getUser } from "../core/users.js";
import { insertEvent } from "../store/events.js";
import * as repo from "./store.js";

/**
 * Connected apps: the grants a person gave (consent, remembered), as they and the operator see
 * them, and their revocation. Revoking a grant does what oidc-provider's grant revocation does
 * (the adapter's revokeByGrantId): the grant and every code, refresh token and access token record
 * issued under it are gone in one transaction, so the app can no longer refresh; a JWT access
 * token already handed out stays valid until it expires (access-token-lifetime).
 */
export interface GrantView {
  grantId: string;
  clientId: string;
  /** The client's name as registered (by the operator, or by the client itself). */
  clientName: string;
  /** Where the app's sign-ins return: the hosts of its redirect URIs (a private-use scheme by name). */
  redirectHosts: string[];
  /** OpenID scopes granted (openid, email, offline_access). */
  scopes: string[];
  /** The resources (APIs, MCP servers) it may get tokens for, with their scopes. */
  resources: Array<{ resource: string; scopes: string[] }>;
  /** When the consent was first given, and when the grant ends unless used again (epoch ms). */
  grantedAt: number;
  expiresAt: number | null;
}

interface GrantPayload { openid?: { scope?: string }; resources?: Record<string, string> }

/** A person's live grants, newest first; undefined when no such person. `userId` may name any of their logins. */
export async function listPersonGrants(ctx: CoreContext, userId: string): Promise<GrantView[] | undefined> {
  const user = await getUser(ctx, userId);
  if (!user) return undefined;
  const rows = await repo.listGrants(ctx.store.db, user.id, ctx.clock.now());
  const names = new Map<string, { name: string; redirects: string[] }>();
  for (const clientId of new Set(rows.map((r) => r.client_id!))) names.set(clientId, await describeClient(ctx, clientId));
  return rows.map((r) => {
    const p = JSON.parse(r.payload) as GrantPayload;
    const client = names.get(r.client_id!)!;
    return {
      grantId: r.id, clientId: r.client_id!, clientName: client.name, redirectHosts: [...new Set(client.redirects.map(redirectHost))],
      scopes: splitScopes(p.openid?.scope),
      resources: Object.entries(p.resources ?? {}).map(([resource, scope]) => ({ resource, scopes: splitScopes(scope) })),
      grantedAt: Number(r.created_at), expiresAt: r.expires_at === null ? null : Number(r.expires_at),
    };
  });
}

/**
 * Ends one of the person's grants (`grantId`) with its codes and tokens; false when it is not theirs
 * (or already gone), without saying which. `source`: "account" (the person) or "admin-api"/"dashboard".
 */
export async function revokePersonGrant(ctx: CoreContext, userId: string, grantId: string, source: string): Promise<boolean> {
  if (typeof grantId !== "string" || grantId.length === 0 || grantId.length > 200) return false;
  const user = await getUser(ctx, userId);
  if (!user) return false;
  const now = ctx.clock.now();
  return ctx.store.writeTx(async (tx) => {
    const grant = await repo.findRecord(tx, "Grant", grantId);
    if (!grant || grant.account_id !== user.id) return false;
    await repo.deleteByGrant(tx, grantId);
    await insertEvent(tx, { at: now, type: "oauth.grant_revoked", userId: user.id, data: { grantId, clientId: grant.client_id, source } });
    return true;
  });
}

async function describeClient(ctx: CoreContext, clientId: string): Promise<{ name: string; redirects: string[] }> {
  const operator = await repo.findClient(ctx.store.db, clientId);
  if (operator) return { name: operator.name, redirects: JSON.parse(operator.redirect_uris) as string[] };
  const registered = await repo.findRecord(ctx.store.db, "Client", clientId);
  if (!registered) return { name: clientId, redirects: [] };
  const m = JSON.parse(registered.payload) as { client_name?: unknown; redirect_uris?: unknown };
  return {
    name: typeof m.client_name === "string" && m.client_name ? m.client_name : clientId,
    redirects: Array.isArray(m.redirect_uris) ? m.redirect_uris.filter((u): u is string => typeof u === "string") : [],
  };
}

function redirectHost(uri: string): string {
  try {
    const u = new URL(uri);
    return u.protocol === "http:" || u.protocol === "https:" ? u.host : u.protocol.replace(/:$/, "");
  } catch {
    return uri;
  }
}

const splitScopes = (s: string | undefined) => (s ? s.split(" ").filter(Boolean) : []);
