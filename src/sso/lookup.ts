import type { CoreContext } from "../core/context.js";
import { canonicalEmail } from "../core/emails.js";
import { membershipsOf } from "../core/memberships.js";
import { listConnections, type ConnectionView } from "./saml-connections.js";

/**
 * For the hosted sign-in page's routing (by the address a person types): the connections of the
 * organization whose proven domain the address is at, with where a browser starts each one.
 * SAML: `GET <api>/saml/<id>/login`; OpenID: the third-party flow of `oidc-<id>` (GET
 * /authorisationurl, as for any provider). Empty when the domain is no organization's or it has no
 * connection.
 */
export interface ConnectionForAddress { organizationId: string; connection: ConnectionView; thirdPartyId: string; startPath?: string }

export async function connectionsForAddress(ctx: CoreContext, email: string): Promise<ConnectionForAddress[]> {
  const address = canonicalEmail(email);
  const at = address.lastIndexOf("@");
  if (at < 1) return [];
  const domain = await membershipsOf(ctx).findDomain(ctx.store.db, address.slice(at + 1));
  if (!domain) return [];
  return (await listConnections(ctx, domain.organization_id)).map((c) => ({
    organizationId: domain.organization_id, connection: c, thirdPartyId: c.thirdPartyId,
    ...(c.kind === "saml" ? { startPath: `${ctx.config.apiBasePath}/saml/${c.id}/login` } : {}),
  }));
}
