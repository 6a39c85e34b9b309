import type { CoreContext } from "../core/context.js";
import { AuthError } from "../core/errors.js";
import { insertEvent } from "../store/events.js";
import { createId } from "../util/random.js";
import { membershipsOf } from "../core/memberships.js";
import type { IdpMetadata } from "./saml-metadata.js";
import type { SsoConnectionsTable } from "./schema.js";

/** An organization's SAML connections: added by the operator from the IdP's metadata, listed, removed. */
export interface ConnectionView { id: string; organizationId: string; kind: string; thirdPartyId: string; idpEntityId: string; idpSsoUrl: string; idpInitiated: boolean; metadataSource: string; createdAt: number }

export const toConnectionView = (r: SsoConnectionsTable): ConnectionView => ({
  id: r.id, organizationId: r.organization_id, kind: r.kind, thirdPartyId: `${r.kind}-${r.id}`, idpEntityId: r.idp_entity_id, idpSsoUrl: r.idp_sso_url,
  idpInitiated: r.idp_initiated === 1, metadataSource: r.metadata_source, createdAt: Number(r.created_at),
});

export async function addSamlConnection(ctx: CoreContext, organizationId: string, p: { metadata: IdpMetadata; source: string; idpInitiated: boolean; actor: string }): Promise<ConnectionView> {
  const now = ctx.clock.now();
  // A short id: it is in the ACS URL the IdP is configured with and in the SDKs' thirdPartyId.
  const row: SsoConnectionsTable = {
    id: createId().replace(/-/g, "").slice(0, 16), organization_id: organizationId, kind: "saml", idp_entity_id: p.metadata.entityId, idp_sso_url: p.metadata.ssoUrl,
    idp_certs: JSON.stringify(p.metadata.certs), idp_initiated: p.idpInitiated ? 1 : 0, metadata_source: p.source, created_at: now,
  };
  await ctx.store.writeTx(async (tx) => {
    if (!(await membershipsOf(ctx).lockOrganization(tx, organizationId))) throw new AuthError("NOT_FOUND", "No such organization");
    await tx.insertInto("sso_connections").values(row).execute();
    await insertEvent(tx, { at: now, type: "organization.sso_connection_added", userId: null, data: { organizationId, connectionId: row.id, kind: "saml", idpEntityId: row.idp_entity_id, source: p.actor } });
  });
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
