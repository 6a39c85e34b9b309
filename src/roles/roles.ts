import type { Kysely } from "kysely";
import type { DB } from "../store/schema.js";
import { insertEvent } from "../store/events.js";
import { findPersonId, findPersonMemberIds } from "../store/people.js";
import type { CoreContext } from "../core/context.js";
import { badInput } from "../core/errors.js";
import * as store from "./store.js";

/**
 * Roles and permissions (SuperTokens' userroles recipe): a role is a name with a set of permission
 * strings; people are given roles; every access token carries the person's roles (`st-role`) and
 * the union of their permissions (`st-perm`), recomputed at each refresh (claims.ts), so a change
 * here shows in the token the next time it is refreshed. Every change is one transaction with its
 * event. The CLI and the admin API call these same functions. A role the operator marks
 * `organization` may also be handed out inside organizations (organizations/org-roles.ts); an
 * unmarked one is a platform role only the operator gives, so its permissions (users:delete…)
 * never reach an organization's members.
 */

const ROLE = /^[A-Za-z0-9][A-Za-z0-9_.:-]{0,99}$/;
const PERMISSION = /^[A-Za-z0-9*][A-Za-z0-9_.:/*-]{0,199}$/;
export const MAX_PERMISSIONS = 500;

/** A role name as given, or a clear 400 (letters, digits, `_ . : -`, at most 100). */
export function checkRoleName(role: unknown): string {
  if (typeof role !== "string" || !ROLE.test(role)) throw badInput("role must be 1-100 letters, digits, '_', '.', ':' or '-', starting with a letter or digit");
  return role;
}

/** A list of permission names, without repeats, or a clear 400. */
export function checkPermissions(list: unknown): string[] {
  if (!Array.isArray(list)) throw badInput("permissions must be an array of strings");
  if (list.length > MAX_PERMISSIONS) throw badInput(`at most ${MAX_PERMISSIONS} permissions per role`);
  for (const p of list) {
    if (typeof p !== "string" || !PERMISSION.test(p)) throw badInput("each permission must be 1-200 letters, digits, '_', '.', ':', '/', '*' or '-'");
  }
  return [...new Set(list as string[])];
}

export interface RoleView { role: string; permissions: string[]; organization: boolean }

/** Every role with its permissions, by name. */
export async function listRoles(ctx: CoreContext): Promise<RoleView[]> {
  return store.listRoles(ctx.store.db);
}

/**
 * Creates a role (if new) and gives it permissions: `replace` makes them exactly the role's
 * permissions (the admin API's PUT), otherwise they are added to what it has. `organization`, when
 * given, marks whether organizations may hand it out (a new role is not marked unless asked).
 */
export async function putRole(ctx: CoreContext, role: string, permissions: readonly string[], opts: { replace?: boolean; organization?: boolean; source?: string } = {}): Promise<{ created: boolean; role: RoleView }> {
  checkRoleName(role);
  const perms = checkPermissions(permissions);
  if (opts.organization !== undefined && typeof opts.organization !== "boolean") throw badInput("organization must be true or false");
  const source = opts.source ?? "api";
  const now = ctx.clock.now();
  return ctx.store.writeTx(async (tx) => {
    const created = await store.insertRole(tx, role, now, opts.organization === true);
    const removed = opts.replace ? await store.deletePermissions(tx, role, (await permissionsOf(tx, role)).filter((p) => !perms.includes(p))) : 0;
    const added = await store.insertPermissions(tx, role, perms);
    const marked = !created && opts.organization !== undefined && (await store.setOrganizationRole(tx, role, opts.organization));
    if (created) await insertEvent(tx, { at: now, type: "role.created", userId: null, data: { role, permissions: perms, organization: opts.organization === true, source } });
    else if (added > 0 || removed > 0) await insertEvent(tx, { at: now, type: "role.permissions_changed", userId: null, data: { role, permissions: await permissionsOf(tx, role), source } });
    if (marked) await insertEvent(tx, { at: now, type: "role.organization_changed", userId: null, data: { role, organization: opts.organization, source } });
    return { created, role: await viewOf(tx, role) };
  });
}

/** Takes permissions from a role. undefined when there is no such role. */
export async function removePermissions(ctx: CoreContext, role: string, permissions: readonly string[], source = "api"): Promise<RoleView | undefined> {
  const perms = checkPermissions(permissions);
  const now = ctx.clock.now();
  return ctx.store.writeTx(async (tx) => {
    if (!(await store.findRole(tx, role))) return undefined;
    const removed = await store.deletePermissions(tx, role, perms);
    const left = await viewOf(tx, role);
    if (removed > 0) await insertEvent(tx, { at: now, type: "role.permissions_changed", userId: null, data: { role, permissions: left.permissions, source } });
    return left;
  });
}

/** Deletes a role: everyone who had it loses it at their next refresh. False when there was none. */
export async function deleteRole(ctx: CoreContext, role: string, source = "api"): Promise<boolean> {
  const now = ctx.clock.now();
  return ctx.store.writeTx(async (tx) => {
    const holders = await store.findRoleHolders(tx, role, 1_000_000);
    const done = await store.deleteRole(tx, role);
    if (done) await insertEvent(tx, { at: now, type: "role.deleted", userId: null, data: { role, holders: holders.length, source } });
    return done;
  });
}

export type AssignResult = { status: "OK"; changed: boolean; roles: string[] } | { status: "UNKNOWN_USER" } | { status: "UNKNOWN_ROLE" };

/**
 * Gives a person (any of their user ids) a role, or takes it away (`remove`). The role must
 * exist: a typo must not silently give nothing. `user.roles_changed` names the change and the
 * roles the person has after it.
 */
export async function setUserRole(ctx: CoreContext, userId: string, role: string, opts: { remove?: boolean; source?: string } = {}): Promise<AssignResult> {
  checkRoleName(role);
  const now = ctx.clock.now();
  return ctx.store.writeTx(async (tx): Promise<AssignResult> => {
    const personId = await findPersonId(tx, userId);
    if (personId === undefined) return { status: "UNKNOWN_USER" };
    if (!(await store.findRole(tx, role))) return { status: "UNKNOWN_ROLE" };
    const changed = opts.remove
      ? (await store.deleteUserRole(tx, await findPersonMemberIds(tx, personId), role)) > 0
      : (await store.insertUserRole(tx, personId, role, now)) && !(await hadRoleOnAnotherMethod(tx, personId, role));
    const { roles } = await store.findPersonRoles(tx, personId);
    if (changed) await insertEvent(tx, { at: now, type: "user.roles_changed", userId: personId, data: { [opts.remove ? "removed" : "added"]: role, roles, source: opts.source ?? "api" } });
    return { status: "OK", changed, roles };
  });
}

/** The roles and permissions a person has now (undefined: no such user). */
export async function getUserRoles(ctx: CoreContext, userId: string): Promise<{ userId: string; roles: string[]; permissions: string[] } | undefined> {
  const personId = await findPersonId(ctx.store.db, userId);
  if (personId === undefined) return undefined;
  return { userId: personId, ...(await store.findPersonRoles(ctx.store.db, personId)) };
}

/** The people who have a role (undefined: no such role). */
export async function listRoleHolders(ctx: CoreContext, role: string, limit = 1000): Promise<string[] | undefined> {
  if (!(await store.findRole(ctx.store.db, role))) return undefined;
  return store.findRoleHolders(ctx.store.db, role, limit);
}

async function permissionsOf(db: Kysely<DB>, role: string): Promise<string[]> {
  return store.findPermissions(db, role);
}

async function viewOf(db: Kysely<DB>, role: string): Promise<RoleView> {
  return { role, permissions: await permissionsOf(db, role), organization: (await store.findRole(db, role))?.organization ?? false };
}

/** Whether a login method joined into the person already carried the role (then nothing changed). */
async function hadRoleOnAnotherMethod(db: Kysely<DB>, personId: string, role: string): Promise<boolean> {
  const others = (await findPersonMemberIds(db, personId)).filter((id) => id !== personId);
  return store.hasRole(db, others, role);
}
