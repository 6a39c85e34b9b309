import type { CoreContext } from "../core/context.js";
import { AuthError } from "../core/errors.js";
import { insertEvent } from "../store/events.js";
import { createId } from "../util/random.js";
import { membershipsOf } from "../core/memberships.js";
import { isSealed, openText, sealText } from "../util/sealed-text.js";
import type { IdpMetadata } from "./saml-metadata.js";
import type { SsoConnectionsTable } from "./schema.js";

/**
 * An organization's connections: SAML ones added by the operator from the IdP's metadata, OpenID
 * ones from the provider's issuer and our client there; listed (never with the client secret),
 * removed. Adding and removing are the events `organization.sso_connection_added` / `_removed`.
 */
export interface ConnectionView {
  id: string; organizationId: string; kind: string; thirdPartyId: string; idpEntityId: string; idpSsoUrl: string; idpInitiated: boolean; metadataSource: string; createdAt: number;
  /** OpenID: the issuer, our client id and the scopes asked for. */
  issuer?: string; clientId?: string; scope?: string[];
  /** SAML metadata from a URL: when it was last read, and the last refresh's failure (null when it did not fail). */
  metadataRefreshedAt?: number | null; metadataError?: string | null;
}

export const toConnectionView = (r: SsoConnectionsTable): ConnectionView => ({
  id: r.id, organizationId: r.organization_id, kind: r.kind, thirdPartyId: `${r.kind}-${r.id}`, idpEntityId: r.idp_entity_id, idpSsoUrl: r.idp_sso_url,
  idpInitiated: r.idp_initiated === 1, metadataSource: r.metadata_source, createdAt: Number(r.created_at),
  ...(r.kind === "oidc" ? { issuer: r.idp_entity_id, clientId: r.client_id ?? "", scope: (r.oidc_scope ?? "").split(" ").filter(Boolean) } : {}),
  ...(r.kind === "saml" && isUrl(r.metadata_source) ? { metadataRefreshedAt: r.metadata_refreshed_at === null ? null : Number(r.metadata_refreshed_at), metadataError: r.metadata_error } : {}),
});

export const isUrl = (source: string) => /^https?:\/\//i.test(source);
/** A short id: it is in the ACS URL the IdP is configured with and in the SDKs' thirdPartyId. */
const newConnectionId = () => createId().replace(/-/g, "").slice(0, 16);
const sealKey = (secret: string) => ({ secret, purpose: "sso-client-secret v1" });

/** The client secret of an OpenID connection, sealed under the server secret (plain only without one, in development). */
export function sealClientSecret(ctx: CoreContext, id: string, secret: string): string {
  return ctx.config.secret ? sealText(secret, sealKey(ctx.config.secret), id) : secret;
}

export function openClientSecret(ctx: CoreContext, r: SsoConnectionsTable): string {
  const stored = r.client_secret ?? "";
  if (!isSealed(stored)) {
    if (ctx.config.secret) throw new Error(`the client secret of connection ${r.id} is stored unencrypted although a server secret (AUTHSVC_SECRET) is configured; remove the connection and add it again`);
    return stored;
  }
  if (!ctx.config.secret) throw new Error(`the client secret of connection ${r.id} is encrypted but no server secret (AUTHSVC_SECRET) is configured`);
  try { return openText(stored, sealKey(ctx.config.secret), r.id); } catch {
    throw new Error(`the client secret of connection ${r.id} cannot be decrypted: the server secret differs from the one it was stored with`);
  }
}

async function insertConnection(ctx: CoreContext, row: SsoConnectionsTable, actor: string): Promise<void> {
  await ctx.store.writeTx(async (tx) => {
    if (!(await membershipsOf(ctx).lockOrganization(tx, row.organization_id))) throw new AuthError("NOT_FOUND", "No such organization");
    await tx.insertInto("sso_connections").values(row).execute();
    await insertEvent(tx, { at: row.created_at, type: "organization.sso_connection_added", userId: null, data: { organizationId: row.organization_id, connectionId: row.id, kind: row.kind, idpEntityId: row.idp_entity_id, source: actor } });
  });
}

export async function addOidcConnection(ctx: CoreContext, organizationId: string, p: { issuer: string; clientId: string; clientSecret: string; scope: readonly string[]; actor: string }): Promise<ConnectionView> {
  const id = newConnectionId();
  const row: SsoConnectionsTable = {
    id, organization_id: organizationId, kind: "oidc", idp_entity_id: p.issuer, idp_sso_url: "", idp_certs: "[]", idp_initiated: 0, metadata_source: p.issuer,
    created_at: ctx.clock.now(), client_id: p.clientId, client_secret: sealClientSecret(ctx, id, p.clientSecret), oidc_scope: p.scope.join(" "), metadata_refreshed_at: null, metadata_error: null,
  };
  await insertConnection(ctx, row, p.actor);
  return toConnectionView(row);
}

export async function addSamlConnection(ctx: CoreContext, organizationId: string, p: { metadata: IdpMetadata; source: string; idpInitiated: boolean; actor: string }): Promise<ConnectionView> {
  const now = ctx.clock.now();
  const row: SsoConnectionsTable = {
    id: newConnectionId(), organization_id: organizationId, kind: "saml", idp_entity_id: p.metadata.entityId, idp_sso_url: p.metadata.ssoUrl,
    idp_certs: JSON.stringify(p.metadata.certs), idp_initiated: p.idpInitiated ? 1 : 0, metadata_source: p.source, created_at: now,
    client_id: null, client_secret: null, oidc_scope: null, metadata_refreshed_at: isUrl(p.source) ? now : null, metadata_error: null,
  };
  await insertConnection(ctx, row, p.actor);
  return toConnectionView(row);
}

export async function listConnections(ctx: CoreContext, organizationId: string): Promise<ConnectionView[]> {
  const rows = await ctx.store.db.selectFrom("sso_connections").selectAll().where("organization_id", "=", organizationId).orderBy("created_at").orderBy("id").execute();
  return rows.map(toConnectionView);
}

export async function findConnection(ctx: CoreContext, id: string): Promise<SsoConnectionsTable | undefined> {
  return ctx.store.db.selectFrom("sso_connections").selectAll().where("id", "=", id).executeTakeFirst();
}

export async function removeConnection(ctx: CoreContext, organizationId: string, id: string, actor: string): Promise<void> {
  const now = ctx.clock.now();
  await ctx.store.writeTx(async (tx) => {
    const r = await tx.deleteFrom("sso_connections").where("organization_id", "=", organizationId).where("id", "=", id).executeTakeFirst();
    if (Number(r.numDeletedRows) === 0) throw new AuthError("NOT_FOUND", `no connection ${id} in this organization`);
    await insertEvent(tx, { at: now, type: "organization.sso_connection_removed", userId: null, data: { organizationId, connectionId: id, source: actor } });
  });
}
