import type { ConnectedProvider, ConnectedProviders } from "../core/connected-providers.js";
import type { CoreContext } from "../core/context.js";
import { canonicalEmail } from "../core/emails.js";
import { badInput } from "../core/errors.js";
import { membershipsOf } from "../core/memberships.js";
import { admitMember, atProvenDomain, groupNames, ssoRefused } from "./members.js";
import { findConnection, openClientSecret } from "./saml-connections.js";

/**
 * An organization's OpenID Connect connection, to the SDKs the third-party provider `oidc-<id>`
 * (core/connected-providers.ts): the sign-in with providers does discovery, the authorization code
 * with PKCE (a nonce derived from the verifier, so the ID token only signs in the browser that
 * started) and the ID-token checks through openid-client, as for a configured provider; this says
 * what the address counts for and what the person becomes in the organization.
 *
 * The address: at one of the organization's proven domains, the organization vouches for it
 * (verified, as SAML); elsewhere only an address the provider marks `email_verified` is taken,
 * and it stays unverified here: an organization's IdP speaks for its own domains, so it can
 * never join an account someone else holds at another domain. Groups come from the ID token's
 * `groups` claim (Okta, Entra ID, Keycloak with a group mapper) and give the role as SAML's do.
 */
const ID = /^oidc-([a-z0-9]{1,64})$/;

export const oidcConnections: ConnectedProviders = {
  async find(ctx, thirdPartyId) {
    const m = ID.exec(thirdPartyId);
    if (!m) return undefined;
    const c = await findConnection(ctx, m[1]);
    if (!c || c.kind !== "oidc") return undefined;
    const org = await membershipsOf(ctx).findOrganization(ctx.store.db, c.organization_id);
    const provider: ConnectedProvider = {
      id: thirdPartyId,
      name: `${org?.name ?? "Organization"} SSO`,
      oidc: { issuer: c.idp_entity_id, clientId: c.client_id ?? "", clientSecret: openClientSecret(ctx, c), scope: (c.oidc_scope ?? "").split(" ").filter(Boolean) },
      async admit(ctx: CoreContext, who) {
        const email = who.email === undefined ? "" : canonicalEmail(who.email);
        if (!email) throw ssoRefused("oidc", "the provider named no address");
        if (await atProvenDomain(ctx, c, email)) return { email, emailVerified: true };
        if (!who.emailVerified) throw ssoRefused("oidc", `the provider did not verify ${email} (email_verified) and it is not at one of the organization's proven domains`);
        return { email, emailVerified: false };
      },
      signedIn: (ctx, p) => admitMember(ctx, c, p.recipeUserId, groupNames(p.claims.groups)),
    };
    return provider;
  },
};

/** The issuer's discovery document must name that issuer (OpenID Connect Discovery §4.3); its URL is https unless it is this machine. */
export async function checkIssuer(issuer: string): Promise<string> {
  let u: URL;
  try { u = new URL(issuer); } catch { throw badInput("--oidc-issuer must be an absolute https URL"); }
  const loopback = u.hostname === "localhost" || u.hostname === "[::1]" || /^127\.\d+\.\d+\.\d+$/.test(u.hostname);
  if (u.protocol !== "https:" && !(u.protocol === "http:" && loopback)) throw badInput("--oidc-issuer must be an https URL (http only for this machine)");
  if (u.username || u.password || u.search || u.hash) throw badInput("--oidc-issuer must be the issuer alone (no credentials, query or fragment)");
  const clean = issuer.replace(/\/+$/, "");
  let doc: unknown;
  try {
    const res = await fetch(`${clean}/.well-known/openid-configuration`, { signal: AbortSignal.timeout(10_000), redirect: "error" });
    if (!res.ok) throw new Error(`HTTP ${res.status}`);
    doc = await res.json();
  } catch (err) {
    throw badInput(`could not read the discovery document of ${clean}: ${(err as Error).message}`);
  }
  const published = doc && typeof doc === "object" ? (doc as { issuer?: unknown }).issuer : undefined;
  if (typeof published !== "string" || published.replace(/\/+$/, "") !== clean) throw badInput(`the discovery document of ${clean} names another issuer (${String(published)})`);
  return published;
}
