import { domainToASCII } from "node:url";
import type { Kysely } from "kysely";
import type { CoreContext } from "../core/context.js";
import { AuthError, badInput } from "../core/errors.js";
import { insertEvent } from "../store/events.js";
import { findVerifiedAddresses } from "../store/people.js";
import type { DB } from "../store/schema.js";
import { checkOrganizationRole, MEMBER_FALLBACK, OWNER, permissionsOfRole } from "./org-roles.js";
import { notFound, toView, type OrganizationView } from "./organizations.js";
import * as store from "./store.js";

/**
 * Domain auto-join. An organization proves a domain through the operator: the operator checks the
 * organization owns it (a DNS TXT record they ask for, a contract) and adds it with the admin API,
 * the CLI or the dashboard; authsvc trusts the admin key for it and checks nothing on the network.
 * A person then sees the organization among those they may join, and joins with the domain's role
 * when they choose to, only while one of their login methods has an address at exactly that
 * domain *verified* (a mailed link or code, or a provider that said email_verified); an unverified
 * address, a subdomain or a look-alike domain never joins.
 */

export interface DomainView { domain: string; organizationId: string; role: string; verifiedBy: string; createdAt: number }
export interface JoinableOrganization extends OrganizationView { domain: string; role: string }

const toDomainView = (d: store.DomainRow): DomainView => ({ domain: d.domain, organizationId: d.organization_id, role: d.role, verifiedBy: d.verified_by, createdAt: Number(d.created_at) });

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;
/** A domain name: lowercase ASCII (an IDN in its punycode form), two labels at least, no trailing dot. */
export function checkDomain(input: unknown): string {
  const ascii = typeof input === "string" ? domainToASCII(input.trim().toLowerCase()) : "";
  const labels = ascii.split(".");
  if (!ascii || ascii.length > 253 || labels.length < 2 || !labels.every((l) => LABEL.test(l)) || /^[0-9]+$/.test(labels.at(-1)!)) {
    throw badInput("domain must be a domain name such as example.com (no scheme, no @, no trailing dot)");
  }
  return ascii;
}

/** The domain part of an address, as checkDomain writes it (undefined when it is none). */
function domainOf(email: string): string | undefined {
  const at = email.lastIndexOf("@");
  try { return at > 0 ? checkDomain(email.slice(at + 1)) : undefined; } catch { return undefined; }
}

/**
 * The operator vouches that the organization owns `domain`: people with a verified address there
 * may join it with `role` (default member; never owner). A domain belongs to one organization.
 */
export async function addDomain(ctx: CoreContext, id: string, input: { domain: unknown; role?: unknown }, source: string): Promise<DomainView> {
  const domain = checkDomain(input.domain);
  const role = input.role === undefined ? MEMBER_FALLBACK : input.role;
  if (typeof role !== "string" || !role) throw badInput("role must be a role's name");
  if (role === OWNER) throw badInput("a domain cannot make people owners: give admin, member or a role the operator defined");
  const now = ctx.clock.now();
  return ctx.store.writeTx(async (tx) => {
    if (!(await store.lockOrganization(tx, id))) throw notFound();
    await checkOrganizationRole(tx, role);
    const held = await store.findDomain(tx, domain);
    if (held && held.organization_id !== id) throw new AuthError("CONFLICT", `${domain} belongs to another organization: remove it there first`);
    const row: store.DomainRow = { domain, organization_id: id, role, verified_by: source, created_at: held ? Number(held.created_at) : now };
    await store.upsertDomain(tx, row);
    await insertEvent(tx, { at: now, type: "organization.domain_added", userId: null, data: { organizationId: id, domain, role, source } });
    return toDomainView(row);
  });
}

/** The organization stops vouching for the domain: no one joins through it any more (members stay). */
export async function removeDomain(ctx: CoreContext, id: string, domainInput: unknown, source: string): Promise<void> {
  const domain = checkDomain(domainInput);
  const now = ctx.clock.now();
  await ctx.store.writeTx(async (tx) => {
    if (!(await store.lockOrganization(tx, id))) throw notFound();
    if (!(await store.deleteDomain(tx, id, domain))) throw new AuthError("NOT_FOUND", `${domain} is not one of this organization's domains`);
    await insertEvent(tx, { at: now, type: "organization.domain_removed", userId: null, data: { organizationId: id, domain, source } });
  });
}

export async function listDomains(ctx: CoreContext, id: string): Promise<DomainView[]> {
  return (await store.listDomains(ctx.store.db, id)).map(toDomainView);
}

/** The organizations the person may join through a verified address at one of their domains (not those they are in). */
async function joinable(db: Kysely<DB>, personId: string) {
  const domains = [...new Set((await findVerifiedAddresses(db, personId)).map((a) => domainOf(a.email)).filter((d): d is string => d !== undefined))];
  const mine = new Set((await store.findPersonOrganizations(db, personId)).map((o) => o.id));
  return (await store.findDomainOrganizations(db, domains)).filter((o) => !mine.has(o.id));
}

export async function listJoinable(ctx: CoreContext, personId: string): Promise<JoinableOrganization[]> {
  return (await joinable(ctx.store.db, personId)).map((o) => ({ ...toView(o), domain: o.domain, role: o.domain_role }));
}

/**
 * The person joins through a domain: re-checked in the transaction (a verified address there, the
 * domain still the organization's, not a member yet); anything else is the same 404 as an
 * organization that does not exist. The organization becomes the person's active one.
 */
export async function joinByDomain(ctx: CoreContext, personId: string, id: unknown): Promise<{ organization: OrganizationView; role: string }> {
  if (typeof id !== "string" || !id) throw badInput("organizationId is required");
  const now = ctx.clock.now();
  return ctx.store.writeTx(async (tx) => {
    if (!(await store.lockOrganization(tx, id))) throw notFound();
    const match = (await joinable(tx, personId)).find((o) => o.id === id);
    if (!match) throw notFound();
    const role = (await permissionsOfRole(tx, match.domain_role)) === undefined ? MEMBER_FALLBACK : match.domain_role;
    await store.insertMember(tx, { organization_id: id, user_id: personId, role, created_at: now, active_at: null });
    await store.setMemberActive(tx, id, personId, personId, now);
    await insertEvent(tx, { at: now, type: "organization.member_added", userId: personId, data: { organizationId: id, role, domain: match.domain, source: "domain" } });
    return { organization: toView(match), role };
  });
}
