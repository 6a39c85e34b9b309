import type { Kysely } from "kysely";
import type { CoreContext } from "../core/context.js";
import { canonicalEmail, isValidEmail } from "../core/emails.js";
import { AuthError, badInput } from "../core/errors.js";
import { countEnded, endWaysIn } from "../core/ways-in.js";
import { insertEvent } from "../store/events.js";
import { findPersonId } from "../store/people.js";
import type { DB } from "../store/schema.js";
import { createId } from "../util/random.js";
import { accountsOf } from "../core/account-operations.js";
import { membershipsOf, type Memberships } from "../core/memberships.js";
import { attr, emailOf, keptAttributes, patchAttributes, readBoolean, readPatch, type Attributes } from "./scim-resources.js";
import { syncMembership } from "./scim-membership.js";
import * as store from "./store.js";

/**
 * SCIM Users of one organization (the organization is the token's). A new User is a person with
 * the address the directory gives, which must be at one of the organization's proven domains: the
 * organization vouches for those addresses, so the person's address counts as verified and
 * account linking joins whoever has it verified already. Anything else is refused, so a directory
 * can never claim an address its organization has not proven. Deprovisioning (`active` false, or
 * DELETE) ends every way in of the person at once (endWaysIn) and removes them from the
 * organization; reactivating makes them a member again.
 */
export const uniqueness = (message: string) => new AuthError("CONFLICT", message);
const noUser = () => new AuthError("NOT_FOUND", "No such User");

interface Checked { userName: string; externalId: string | null; active: boolean; resource: Attributes }

function checkUser(body: Attributes): Checked {
  const userName = attr(body, "userName");
  if (typeof userName !== "string" || userName.trim() === "") throw badInput("userName is required");
  const externalId = attr(body, "externalId");
  if (externalId !== undefined && externalId !== null && typeof externalId !== "string") throw badInput("externalId must be a string");
  const active = attr(body, "active") === undefined ? true : readBoolean(attr(body, "active"), "active");
  const resource = keptAttributes(body);
  for (const k of Object.keys(resource)) if (k.toLowerCase() === "active") delete resource[k];
  return { userName: userName.trim(), externalId: typeof externalId === "string" ? externalId : null, active, resource };
}

async function checkAddress(tx: Kysely<DB>, orgs: Memberships, organizationId: string, resource: Attributes): Promise<string> {
  const raw = emailOf(resource);
  const email = raw === undefined ? "" : canonicalEmail(raw);
  if (!isValidEmail(email)) throw badInput("a User needs an address: emails with a value, or a userName that is an address");
  const domain = email.slice(email.lastIndexOf("@") + 1);
  if (!(await orgs.findDomain(tx, domain)) || (await orgs.findDomain(tx, domain))!.organization_id !== organizationId) {
    throw badInput(`${domain} is not one of this organization's proven domains (authsvc orgs add-domain): its directory may only provision addresses there`);
  }
  return email;
}

/** Creates a User: the person (made when new), a member of the organization. */
export async function createScimUser(ctx: CoreContext, organizationId: string, body: Attributes): Promise<store.ScimUserRow> {
  const c = checkUser(body);
  const now = ctx.clock.now();
  const orgs = membershipsOf(ctx);
  return ctx.store.writeTx(async (tx) => {
    if (!(await orgs.lockOrganization(tx, organizationId))) throw noUser();
    if (await store.findUserByName(tx, organizationId, c.userName.toLowerCase())) throw uniqueness(`a User with userName ${c.userName} exists already`);
    const email = await checkAddress(tx, orgs, organizationId, c.resource);
    const p = await accountsOf(ctx, "addressOnly").provision(tx, ctx, { email, source: "scim" });
    if ("refused" in p) throw uniqueness(`${email} cannot be provisioned: ${p.refused}`);
    const personId = (await findPersonId(tx, p.userId)) ?? p.userId;
    if (await store.findUserByPerson(tx, organizationId, personId)) throw uniqueness(`the person with ${email} is provisioned already`);
    const row: store.ScimUserRow = {
      id: createId(), organization_id: organizationId, user_id: personId, user_name: c.userName.toLowerCase(), external_id: c.externalId,
      active: c.active ? 1 : 0, resource: JSON.stringify({ ...c.resource, userName: c.userName }), created_at: now, updated_at: now,
    };
    await store.insertUser(tx, row);
    await syncMembership(tx, orgs, row, now);
    await insertEvent(tx, { at: now, type: "organization.scim_user_provisioned", userId: personId, data: { organizationId, scimId: row.id, userName: c.userName, created: p.created } });
    if (!c.active) await deprovision(tx, ctx, row, "deactivated");
    return row;
  });
}

export async function getScimUser(ctx: CoreContext, organizationId: string, id: string): Promise<store.ScimUserRow> {
  return (await store.findUser(ctx.store.db, organizationId, id)) ?? Promise.reject(noUser());
}

/** PUT: the directory's whole User (the address the person signs in with stays: a person's address is theirs to change). */
export async function replaceScimUser(ctx: CoreContext, organizationId: string, id: string, body: Attributes): Promise<store.ScimUserRow> {
  return writeUser(ctx, organizationId, id, () => checkUser(body));
}

/** PATCH: the operations applied to the stored User, then as a PUT of the result. */
export async function patchScimUser(ctx: CoreContext, organizationId: string, id: string, body: Attributes): Promise<store.ScimUserRow> {
  const ops = readPatch(body);
  return writeUser(ctx, organizationId, id, (row) => {
    const current = { ...(JSON.parse(row.resource) as Attributes), active: row.active === 1, externalId: row.external_id ?? undefined };
    return checkUser(patchAttributes(current, ops));
  });
}

async function writeUser(ctx: CoreContext, organizationId: string, id: string, next: (row: store.ScimUserRow) => Checked): Promise<store.ScimUserRow> {
  const now = ctx.clock.now();
  const orgs = membershipsOf(ctx);
  return ctx.store.writeTx(async (tx) => {
    if (!(await orgs.lockOrganization(tx, organizationId))) throw noUser();
    const row = await store.findUser(tx, organizationId, id);
    if (!row) throw noUser();
    const c = next(row);
    const other = await store.findUserByName(tx, organizationId, c.userName.toLowerCase());
    if (other && other.id !== id) throw uniqueness(`a User with userName ${c.userName} exists already`);
    const updated: store.ScimUserRow = { ...row, user_name: c.userName.toLowerCase(), external_id: c.externalId, active: c.active ? 1 : 0, resource: JSON.stringify({ ...c.resource, userName: c.userName }), updated_at: now };
    await store.updateUser(tx, id, updated);
    await syncMembership(tx, orgs, updated, now);
    const base = { organizationId, scimId: id, userName: c.userName };
    if (row.active === 1 && !c.active) await deprovision(tx, ctx, updated, "deactivated");
    else if (row.active !== 1 && c.active) await insertEvent(tx, { at: now, type: "organization.scim_user_reactivated", userId: row.user_id, data: base });
    else await insertEvent(tx, { at: now, type: "organization.scim_user_updated", userId: row.user_id, data: base });
    return updated;
  });
}

/** DELETE: the person leaves the organization and every way in of theirs ends; the person stays (their own account). */
export async function deleteScimUser(ctx: CoreContext, organizationId: string, id: string): Promise<void> {
  const now = ctx.clock.now();
  const orgs = membershipsOf(ctx);
  await ctx.store.writeTx(async (tx) => {
    if (!(await orgs.lockOrganization(tx, organizationId))) throw noUser();
    const row = await store.findUser(tx, organizationId, id);
    if (!row) throw noUser();
    await syncMembership(tx, orgs, { ...row, active: 0 }, now);
    await store.deleteUser(tx, id);
    await deprovision(tx, ctx, row, "deleted");
  });
}

/** Ends every way in of the person (sessions, refresh tokens, OAuth grants…) in this transaction, and says so. */
async function deprovision(tx: Kysely<DB>, ctx: CoreContext, row: store.ScimUserRow, how: "deactivated" | "deleted"): Promise<void> {
  const ended = await endWaysIn(tx, ctx, { userId: row.user_id, reason: "deprovisioned", source: "scim" });
  await insertEvent(tx, {
    at: ctx.clock.now(), type: "organization.scim_user_deprovisioned", userId: row.user_id,
    data: { organizationId: row.organization_id, scimId: row.id, userName: JSON.parse(row.resource).userName, reason: how, endedWaysIn: countEnded(ended) },
  });
}
