import type { Kysely } from "kysely";
import type { CoreContext } from "../core/context.js";
import { canonicalEmail, isValidEmail } from "../core/emails.js";
import { AuthError } from "../core/errors.js";
import type { SignInPolicy } from "../core/login-policy.js";
import { insertEvent } from "../store/events.js";
import type { DB } from "../store/schema.js";
import { lockOrganization, organizationOfDomain } from "./organization-lookups.js";

/**
 * Routing by address and "SSO required" (docs/enterprise-sso.md): an address whose domain is a
 * proven domain of an organization with a connection is offered that connection ("Sign in with
 * Acme SSO"); while the organization requires SSO, every other way of signing in for such an
 * address is refused by the room's sign-in policy (asked by the kernel whenever a session opens),
 * naming the connection to use. A connection is generic: SAML or OpenID Connect, the SDKs'
 * third-party login `<kind>-<id>`, started at its `loginPath` under the API base path.
 */

/** Where the browser starts a connection's sign-in, under the API base path, by kind (saml-routes.ts). */
const LOGIN_PATHS: Readonly<Record<string, (id: string) => string>> = {
  saml: (id) => `/saml/${encodeURIComponent(id)}/login`,
  oidc: (id) => `/oidc/${encodeURIComponent(id)}/login`,
};

/** What the sign-in page is told of an address's domain: its organization's connection, and whether it is the only way in. */
export interface Route { connectionId: string; kind: string; thirdPartyId: string; organizationName: string; loginPath: string; ssoRequired: boolean }

const domainOf = (email: string): string | undefined => {
  const at = email.lastIndexOf("@");
  return at > 0 ? email.slice(at + 1) : undefined;
};

async function connectionsOf(db: Kysely<DB>, organizationId: string): Promise<Array<{ id: string; kind: string }>> {
  return db.selectFrom("sso_connections").select(["id", "kind"]).where("organization_id", "=", organizationId).orderBy("created_at").orderBy("id").execute();
}

async function requiredIn(db: Kysely<DB>, organizationId: string): Promise<boolean> {
  const row = await db.selectFrom("sso_settings").select("sso_required").where("organization_id", "=", organizationId).executeTakeFirst();
  return row?.sso_required === 1;
}

/**
 * The route for an address: its domain's organization's first connection, or undefined when the
 * domain is no organization's or the organization has none. It depends on the domain alone, so it
 * tells nothing about whether anyone has an account at the address.
 */
export async function routeFor(ctx: CoreContext, db: Kysely<DB>, email: string): Promise<Route | undefined> {
  const domain = domainOf(email);
  if (!domain) return undefined;
  const org = await organizationOfDomain(ctx, db, domain);
  if (!org) return undefined;
  const c = (await connectionsOf(db, org.id)).find((x) => LOGIN_PATHS[x.kind]);
  if (!c) return undefined;
  return { connectionId: c.id, kind: c.kind, thirdPartyId: `${c.kind}-${c.id}`, organizationName: org.name, loginPath: LOGIN_PATHS[c.kind](c.id), ssoRequired: await requiredIn(db, org.id) };
}

/** `POST /sso/discover {email}`: the route for the address (400 when it is not an address). */
export async function discover(ctx: CoreContext, rawEmail: unknown): Promise<Route | undefined> {
  const email = typeof rawEmail === "string" ? canonicalEmail(rawEmail) : "";
  if (!isValidEmail(email)) throw new AuthError("BAD_INPUT", "email must be an email address");
  return routeFor(ctx, ctx.store.db, email);
}

/** The refusal's words: what to use instead. The sign-in page says it in the person's language (js.sso.required). */
export const ssoRequiredReason = (domain: string, organizationName: string) =>
  `Addresses at ${domain} sign in through ${organizationName}'s single sign-on only: use "Sign in with ${organizationName} SSO".`;

/**
 * The room's sign-in policy: an address at a proven domain of an organization that requires SSO
 * (and has a connection) signs in only with a login of one of that organization's connections.
 * No installation without a requiring organization pays more than one indexed query per sign-in.
 */
export const ssoSignInPolicy: SignInPolicy = {
  async refuses(db, ctx, p) {
    const any = await db.selectFrom("sso_settings").select("organization_id").where("sso_required", "=", 1).limit(1).executeTakeFirst();
    if (!any) return undefined;
    const domain = domainOf(p.email);
    if (!domain) return undefined;
    const org = await organizationOfDomain(ctx, db, domain);
    if (!org || !(await requiredIn(db, org.id))) return undefined;
    const connections = await connectionsOf(db, org.id);
    if (connections.length === 0) return undefined;
    const login = await p.login();
    if (login?.provider && connections.some((c) => `${c.kind}-${c.id}` === login.provider)) return undefined;
    return ssoRequiredReason(domain, org.name);
  },
};

/**
 * Switches "SSO required" on or off for the organization, in one transaction with its event (the
 * audit log's entry when an operator did it). On needs a connection: otherwise no one at its
 * domains could sign in at all. Returns whether it changed.
 */
export async function setSsoRequired(ctx: CoreContext, organizationId: string, required: boolean, source: string, adminId?: string): Promise<boolean> {
  const now = ctx.clock.now();
  return ctx.store.writeTx(async (tx) => {
    if (!(await lockOrganization(ctx, tx, organizationId))) throw new AuthError("NOT_FOUND", "No such organization");
    if (required && (await connectionsOf(tx, organizationId)).length === 0) throw new AuthError("BAD_INPUT", "the organization has no SSO connection: add one before requiring SSO");
    const was = await requiredIn(tx, organizationId);
    if (was === required) return false;
    await tx.insertInto("sso_settings").values({ organization_id: organizationId, sso_required: required ? 1 : 0, updated_at: now })
      .onConflict((oc) => oc.column("organization_id").doUpdateSet({ sso_required: required ? 1 : 0, updated_at: now })).execute();
    await insertEvent(tx, { at: now, type: "organization.sso_required_changed", userId: null, ...(adminId ? { adminId } : {}), data: { organizationId, required, source } });
    return true;
  });
}

/** Whether the organization requires SSO now. */
export const isSsoRequired = (ctx: CoreContext, organizationId: string): Promise<boolean> => requiredIn(ctx.store.db, organizationId);
