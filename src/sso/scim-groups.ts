import type { Kysely } from "kysely";
import type { CoreContext } from "../core/context.js";
import { AuthError, badInput } from "../core/errors.js";
import { insertEvent } from "../store/events.js";
import type { DB } from "../store/schema.js";
import { createId } from "../util/random.js";
import { membershipsOf, type Memberships } from "../core/memberships.js";
import { attr, readPatch, type Attributes, type PatchOp } from "./scim-resources.js";
import { syncMembership } from "./scim-membership.js";
import { uniqueness } from "./scim-users.js";
import * as store from "./store.js";

/**
 * SCIM Groups of one organization: a group whose display name is an organization role gives its
 * members that role (scim-membership.ts); other groups are kept and give nothing. Every change of
 * a group's name or members re-derives the role of each member it touched, in its transaction.
 */
const noGroup = () => new AuthError("NOT_FOUND", "No such Group");

function memberIds(value: unknown): string[] {
  if (value === undefined || value === null) return [];
  const list = Array.isArray(value) ? value : [value];
  return list.map((m) => {
    const id = typeof m === "object" && m !== null ? attr(m as Attributes, "value") : undefined;
    if (typeof id !== "string" || !id) throw badInput("each member is an object with the User's id as value");
    return id;
  });
}

function checkName(value: unknown): string {
  if (typeof value !== "string" || value.trim() === "") throw badInput("displayName is required");
  return value.trim();
}

export async function createScimGroup(ctx: CoreContext, organizationId: string, body: Attributes): Promise<store.ScimGroupRow> {
  const name = checkName(attr(body, "displayName"));
  const externalId = attr(body, "externalId");
  const members = memberIds(attr(body, "members"));
  const now = ctx.clock.now();
  const orgs = membershipsOf(ctx);
  return ctx.store.writeTx(async (tx) => {
    if (!(await orgs.lockOrganization(tx, organizationId))) throw noGroup();
    if ((await store.listGroups(tx, organizationId)).some((g) => g.display_name.toLowerCase() === name.toLowerCase())) throw uniqueness(`a Group named ${name} exists already`);
    const row: store.ScimGroupRow = { id: createId(), organization_id: organizationId, display_name: name, external_id: typeof externalId === "string" ? externalId : null, created_at: now, updated_at: now };
    await store.insertGroup(tx, row);
    await setMembers(tx, orgs, row, members, [], now);
    await insertEvent(tx, { at: now, type: "organization.scim_group_created", userId: null, data: { organizationId, scimId: row.id, displayName: name, members: members.length } });
    return row;
  });
}

export async function getScimGroup(ctx: CoreContext, organizationId: string, id: string): Promise<store.ScimGroupRow> {
  return (await store.findGroup(ctx.store.db, organizationId, id)) ?? Promise.reject(noGroup());
}

/** PUT: a new name and the whole member list. */
export async function replaceScimGroup(ctx: CoreContext, organizationId: string, id: string, body: Attributes): Promise<store.ScimGroupRow> {
  const name = checkName(attr(body, "displayName"));
  const members = memberIds(attr(body, "members"));
  const externalId = attr(body, "externalId");
  return writeGroup(ctx, organizationId, id, async (tx, row, before) => {
    await store.updateGroup(tx, id, { display_name: name, external_id: typeof externalId === "string" ? externalId : row.external_id, updated_at: ctx.clock.now() });
    return { members, touched: before };
  });
}

/**
 * PATCH as Entra ID and Okta send it: `members` added or removed by value list, a member removed
 * by `members[value eq "…"]`, `members` replaced, and `displayName`/`externalId` replaced (also in
 * a value object without a path, Okta's rename).
 */
export async function patchScimGroup(ctx: CoreContext, organizationId: string, id: string, body: Attributes): Promise<store.ScimGroupRow> {
  const ops = readPatch(body);
  return writeGroup(ctx, organizationId, id, async (tx, row, before) => {
    const members = new Set(before);
    let name = row.display_name;
    let externalId = row.external_id;
    const setField = (key: string, value: unknown, op: PatchOp["op"]) => {
      const k = key.toLowerCase();
      if (k === "displayname") name = checkName(value);
      else if (k === "externalid") externalId = op === "remove" || typeof value !== "string" ? null : value;
      else if (k === "members") {
        if (op === "replace") members.clear();
        for (const m of memberIds(value)) (op === "remove" ? members.delete(m) : members.add(m));
        if (op === "remove" && (value === undefined || value === null)) members.clear();
      } else if (k !== "id" && k !== "schemas" && k !== "meta") throw badInput(`unknown Group attribute ${key}`);
    };
    for (const o of ops) {
      const one = o.path ? /^members\[\s*value\s+eq\s+"([^"]+)"\s*\]$/i.exec(o.path) : null;
      if (one) members.delete(one[1]);
      else if (o.path) setField(o.path, o.value, o.op);
      else if (typeof o.value === "object" && o.value !== null && !Array.isArray(o.value)) for (const [k, v] of Object.entries(o.value)) setField(k, v, o.op);
      else throw badInput("an operation without a path needs an object value");
    }
    await store.updateGroup(tx, id, { display_name: name, external_id: externalId, updated_at: ctx.clock.now() });
    return { members: [...members], touched: before };
  });
}

async function writeGroup(ctx: CoreContext, organizationId: string, id: string, change: (tx: Kysely<DB>, row: store.ScimGroupRow, members: string[]) => Promise<{ members: string[]; touched: string[] }>): Promise<store.ScimGroupRow> {
  const now = ctx.clock.now();
  const orgs = membershipsOf(ctx);
  return ctx.store.writeTx(async (tx) => {
    if (!(await orgs.lockOrganization(tx, organizationId))) throw noGroup();
    const row = await store.findGroup(tx, organizationId, id);
    if (!row) throw noGroup();
    const before = (await store.listGroupMembers(tx, organizationId)).filter((m) => m.group_id === id).map((m) => m.scim_user_id);
    const next = await change(tx, row, before);
    const updated = (await store.findGroup(tx, organizationId, id))!;
    const clash = (await store.listGroups(tx, organizationId)).find((g) => g.id !== id && g.display_name.toLowerCase() === updated.display_name.toLowerCase());
    if (clash) throw uniqueness(`a Group named ${updated.display_name} exists already`);
    await setMembers(tx, orgs, updated, next.members, next.touched, now);
    await insertEvent(tx, { at: now, type: "organization.scim_group_updated", userId: null, data: { organizationId, scimId: id, displayName: updated.display_name, members: next.members.length } });
    return updated;
  });
}

/** DELETE: the group goes; its members' roles are derived again without it. */
export async function deleteScimGroup(ctx: CoreContext, organizationId: string, id: string): Promise<void> {
  const now = ctx.clock.now();
  const orgs = membershipsOf(ctx);
  await ctx.store.writeTx(async (tx) => {
    if (!(await orgs.lockOrganization(tx, organizationId))) throw noGroup();
    const row = await store.findGroup(tx, organizationId, id);
    if (!row) throw noGroup();
    const before = (await store.listGroupMembers(tx, organizationId)).filter((m) => m.group_id === id).map((m) => m.scim_user_id);
    await store.deleteGroup(tx, id);
    await resync(tx, orgs, organizationId, before, now);
    await insertEvent(tx, { at: now, type: "organization.scim_group_deleted", userId: null, data: { organizationId, scimId: id, displayName: row.display_name } });
  });
}

/** Makes the group's members exactly `members` (ids of this organization's Users; another is a 400), and re-derives the roles of everyone in or out. */
async function setMembers(tx: Kysely<DB>, orgs: Memberships, group: store.ScimGroupRow, members: readonly string[], before: readonly string[], now: number): Promise<void> {
  for (const m of members) if (!(await store.findUser(tx, group.organization_id, m))) throw badInput(`no User ${m} in this organization`);
  await store.clearGroupMembers(tx, group.id);
  for (const m of new Set(members)) await store.addGroupMember(tx, group.id, m);
  await resync(tx, orgs, group.organization_id, [...before, ...members], now);
}

async function resync(tx: Kysely<DB>, orgs: Memberships, organizationId: string, userIds: readonly string[], now: number): Promise<void> {
  for (const id of new Set(userIds)) {
    const u = await store.findUser(tx, organizationId, id);
    if (u) await syncMembership(tx, orgs, u, now);
  }
}
