import type { CoreContext } from "../core/context.js";
import { AuthError } from "../core/errors.js";
import { insertEvent } from "../store/events.js";
import { findPersonId } from "../store/people.js";
import { membershipsOf } from "../core/memberships.js";
import { roleFromGroups } from "./scim-membership.js";
import type { SsoConnectionsTable } from "./schema.js";
import { findUserByPerson } from "./store.js";

/**
 * What a sign-in through a connection (SAML or OpenID) makes of the person, in one place for both:
 * the organization's proven domains vouch for an address, a person its directory deprovisioned
 * (SCIM `active: false`) is refused, and the person becomes (or stays) a member with the role the
 * IdP's groups name (scim-membership.ts roleFromGroups; no groups leave a member's role alone, an
 * owner is never changed). Each sign-in is the event `organization.sso_signed_in` (a webhook and an
 * audit-log entry).
 */
export const ssoRefused = (kind: string, why: string) => new AuthError("BAD_INPUT", `${kind === "oidc" ? "OpenID" : "SAML"} sign-in refused: ${why}`);

/** Whether the address is at one of the connection's organization's proven domains. */
export async function atProvenDomain(ctx: CoreContext, c: SsoConnectionsTable, email: string): Promise<boolean> {
  const domain = await membershipsOf(ctx).findDomain(ctx.store.db, email.slice(email.lastIndexOf("@") + 1));
  return domain?.organization_id === c.organization_id;
}

/** Group names from a claim or attribute value: a list or one name; SAML values with an xsi:type come as { _: text }. */
export function groupNames(value: unknown): string[] {
  return ([] as unknown[]).concat(value ?? []).map((g) => (g && typeof g === "object" && "_" in g ? (g as { _: unknown })._ : g)).filter((g): g is string => typeof g === "string");
}

/** After the account is signed in or up through connection `c`: refuses the deprovisioned, else makes the person a member with the mapped role. */
export async function admitMember(ctx: CoreContext, c: SsoConnectionsTable, recipeUserId: string, groups: readonly string[]): Promise<void> {
  const personId = (await findPersonId(ctx.store.db, recipeUserId)) ?? recipeUserId;
  if ((await findUserByPerson(ctx.store.db, c.organization_id, personId))?.active === 0) throw ssoRefused(c.kind, "the organization's directory deprovisioned this person");
  const source = `${c.kind}-${c.id}`;
  const orgs = membershipsOf(ctx);
  const now = ctx.clock.now();
  await ctx.store.writeTx(async (tx) => {
    const personId = (await findPersonId(tx, recipeUserId)) ?? recipeUserId;
    const m = await orgs.findMember(tx, c.organization_id, personId);
    const role = await roleFromGroups(tx, orgs, groups);
    if (!m) {
      await orgs.insertMember(tx, { organization_id: c.organization_id, user_id: personId, role, created_at: now, active_at: null });
      await insertEvent(tx, { at: now, type: "organization.member_added", userId: personId, data: { organizationId: c.organization_id, role, source } });
    } else if (m.role !== orgs.ownerRole && groups.length > 0 && m.role !== role) {
      await orgs.setMemberRole(tx, c.organization_id, m.user_id, role);
      await insertEvent(tx, { at: now, type: "organization.member_role_changed", userId: personId, data: { organizationId: c.organization_id, role, from: m.role, source } });
    }
    await insertEvent(tx, { at: now, type: "organization.sso_signed_in", userId: personId, data: { organizationId: c.organization_id, connectionId: c.id, kind: c.kind, recipeUserId } });
  });
}
