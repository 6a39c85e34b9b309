import type { Kysely } from "kysely";
import type { CoreContext } from "../core/context.js";
import { AuthError, badInput } from "../core/errors.js";
import { checkUpdate as checkMetadataUpdate } from "../metadata/metadata.js";
import { insertEvent } from "../store/events.js";
import { findPersonId } from "../store/people.js";
import type { DB } from "../store/schema.js";
import { createId } from "../util/random.js";
import { checkOrganizationRole, OWNER, outranks, permissionsOfRole } from "./org-roles.js";
import * as store from "./store.js";

/**
 * Organizations (issue 35): teams a person creates, joins by invitation and switches between. Each
 * change is one transaction with its event; membership changes of one organization are serialised
 * on its row (store.lockOrganization), so "an organization always keeps one owner" holds under
 * concurrency. Who may call what is the route table's guard (guard.ts); these functions re-read the
 * acting member inside their transaction for the rules that compare two roles.
 */

/** Who acts: a member (the person id), or the operator (admin API, CLI) who passes every check but the last owner's. */
export type Actor = { personId: string } | { operator: string };
const sourceOf = (a: Actor) => ("operator" in a ? a.operator : "api");
const actorId = (a: Actor) => ("personId" in a ? a.personId : null);

export interface OrganizationView { id: string; name: string; slug: string; metadata: Record<string, unknown>; createdAt: number; updatedAt: number }
export interface MyOrganization extends OrganizationView { role: string; permissions: string[]; active: boolean }
export interface MemberView { userId: string; email: string; role: string; joinedAt: number }

export const notFound = () => new AuthError("NOT_FOUND", "No such organization (or you are not a member of it)");
const lastOwner = () => new AuthError("CONFLICT", "An organization always keeps one owner: make another member owner first");
const notAbove = () => new AuthError("FORBIDDEN", "You cannot act on a member whose role has permissions you do not have, nor give such a role");

export function toView(o: store.OrganizationRow): OrganizationView {
  return { id: o.id, name: o.name, slug: o.slug, metadata: o.metadata ? (JSON.parse(o.metadata) as Record<string, unknown>) : {}, createdAt: Number(o.created_at), updatedAt: Number(o.updated_at) };
}

/** A display name: 1-100 characters after trimming, no control characters. */
export function checkName(name: unknown): string {
  // eslint-disable-next-line no-control-regex
  if (typeof name !== "string" || !name.trim() || name.trim().length > 100 || /[\x00-\x1f\x7f]/.test(name)) throw badInput("name must be 1-100 characters (no control characters)");
  return name.trim();
}

const SLUG = /^[a-z0-9](?:[a-z0-9-]{0,46}[a-z0-9])?$/;
/** A slug: 1-48 lowercase letters, digits and inner hyphens. */
export function checkSlug(slug: unknown): string {
  if (typeof slug !== "string" || !SLUG.test(slug)) throw badInput("slug must be 1-48 lowercase letters, digits or '-' (not first or last)");
  return slug;
}

/** A slug from a name ("Acme, Inc." → "acme-inc"), with a random tail when it is taken. */
async function freeSlug(tx: Kysely<DB>, name: string): Promise<string> {
  const base = name.normalize("NFKD").toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "").slice(0, 40).replace(/-+$/, "") || "org";
  if (!(await store.findOrganizationBySlug(tx, base))) return base;
  for (;;) {
    const candidate = `${base}-${createId().slice(0, 6)}`;
    if (!(await store.findOrganizationBySlug(tx, candidate))) return candidate;
  }
}

/** Merges a metadata update (shallow; null deletes a key) under config.metadataMaxBytes, or 413-style refusal. */
function mergeMetadata(ctx: CoreContext, current: string | null, update: unknown): string | null {
  const patch = checkMetadataUpdate(update);
  const merged = new Map(Object.entries(current ? (JSON.parse(current) as Record<string, unknown>) : {}));
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) merged.delete(k);
    else merged.set(k, v);
  }
  if (merged.size === 0) return null;
  const text = JSON.stringify(Object.fromEntries(merged));
  if (Buffer.byteLength(text) > ctx.config.metadataMaxBytes) throw badInput(`metadata would be ${Buffer.byteLength(text)} bytes of JSON; the limit is ${ctx.config.metadataMaxBytes} (metadataMaxBytes). Nothing was changed.`);
  return text;
}

/**
 * Creates an organization with `ownerId` (a person) as its owner. A person creating one makes it
 * their active organization; the operator's does not change anyone's.
 */
export async function createOrganization(ctx: CoreContext, input: { name: unknown; slug?: unknown; metadata?: unknown }, ownerId: string, actor: Actor): Promise<OrganizationView> {
  const name = checkName(input.name);
  const wanted = input.slug === undefined ? undefined : checkSlug(input.slug);
  const now = ctx.clock.now();
  const view = await ctx.store.writeTx(async (tx) => {
    const owner = await findPersonId(tx, ownerId);
    if (owner === undefined) throw new AuthError("NOT_FOUND", "No such user");
    if (wanted && (await store.findOrganizationBySlug(tx, wanted))) throw new AuthError("CONFLICT", "That slug is taken");
    const row: store.OrganizationRow = { id: createId(), name, slug: wanted ?? (await freeSlug(tx, name)), metadata: input.metadata === undefined ? null : mergeMetadata(ctx, null, input.metadata), created_at: now, updated_at: now };
    await store.insertOrganization(tx, row);
    await store.insertMember(tx, { organization_id: row.id, user_id: owner, role: OWNER, created_at: now, active_at: null });
    if ("personId" in actor) await store.setMemberActive(tx, row.id, owner, owner, now);
    await insertEvent(tx, { at: now, type: "organization.created", userId: owner, data: { organizationId: row.id, slug: row.slug, source: sourceOf(actor) } });
    return toView(row);
  });
  return view;
}

/** One organization, or undefined. */
export async function getOrganization(ctx: CoreContext, id: string): Promise<OrganizationView | undefined> {
  const o = await store.findOrganization(ctx.store.db, id);
  return o && toView(o);
}

/** Every organization (the operator's list), oldest first. */
export async function listAllOrganizations(ctx: CoreContext, limit = 1000): Promise<OrganizationView[]> {
  return (await store.listOrganizations(ctx.store.db, limit)).map(toView);
}

/** The person's organizations, with their role and permissions there, and which one is active. */
export async function listMyOrganizations(ctx: CoreContext, personId: string): Promise<MyOrganization[]> {
  const db = ctx.store.db;
  const rows = await store.findPersonOrganizations(db, personId);
  const active = await store.findActiveMembership(db, personId);
  const out: MyOrganization[] = [];
  for (const r of rows) out.push({ ...toView(r), role: r.role, permissions: (await permissionsOfRole(db, r.role)) ?? [], active: active?.organization_id === r.id });
  return out;
}

/** Renames, re-slugs or merges metadata; unchanged fields stay. */
export async function updateOrganization(ctx: CoreContext, id: string, input: { name?: unknown; slug?: unknown; metadata?: unknown }, actor: Actor): Promise<OrganizationView> {
  const name = input.name === undefined ? undefined : checkName(input.name);
  const slug = input.slug === undefined ? undefined : checkSlug(input.slug);
  if (name === undefined && slug === undefined && input.metadata === undefined) throw badInput("give name, slug or metadata to change");
  const now = ctx.clock.now();
  return ctx.store.writeTx(async (tx) => {
    if (!(await store.lockOrganization(tx, id))) throw notFound();
    const o = (await store.findOrganization(tx, id))!;
    if (slug !== undefined && slug !== o.slug && (await store.findOrganizationBySlug(tx, slug))) throw new AuthError("CONFLICT", "That slug is taken");
    const metadata = input.metadata === undefined ? o.metadata : mergeMetadata(ctx, o.metadata, input.metadata);
    await store.updateOrganization(tx, id, { name: name ?? o.name, slug: slug ?? o.slug, metadata }, now);
    const changed = [name !== undefined && "name", slug !== undefined && "slug", input.metadata !== undefined && "metadata"].filter(Boolean);
    await insertEvent(tx, { at: now, type: "organization.updated", userId: actorId(actor), data: { organizationId: id, changed, source: sourceOf(actor) } });
    return toView((await store.findOrganization(tx, id))!);
  });
}

/**
 * Deletes an organization with its members and invitations. A member must confirm with its slug;
 * members lose the `org` claim at their next refresh.
 */
export async function deleteOrganization(ctx: CoreContext, id: string, actor: Actor, confirm?: unknown): Promise<void> {
  const now = ctx.clock.now();
  await ctx.store.writeTx(async (tx) => {
    if (!(await store.lockOrganization(tx, id))) throw notFound();
    const o = (await store.findOrganization(tx, id))!;
    if ("personId" in actor && confirm !== o.slug) throw badInput("confirm must be the organization's slug");
    const members = await store.listMembers(tx, id, 1_000_000);
    await store.deleteOrganization(tx, id);
    await insertEvent(tx, { at: now, type: "organization.deleted", userId: actorId(actor), data: { organizationId: id, slug: o.slug, members: members.length, source: sourceOf(actor) } });
  });
}

/**
 * Makes an organization the person's active one (its claim goes in the token), or none (null).
 * Not a member: 404, the same as no such organization.
 */
export async function switchOrganization(ctx: CoreContext, personId: string, id: string | null): Promise<void> {
  const now = ctx.clock.now();
  await ctx.store.writeTx(async (tx) => {
    if (id === null) return store.clearActive(tx, personId);
    const m = await store.findMembership(tx, id, personId);
    if (!m) throw notFound();
    await store.setMemberActive(tx, id, m.user_id, personId, now);
  });
}

/** The members with their address and role, oldest first. */
export async function listMembers(ctx: CoreContext, id: string, limit = 1000): Promise<MemberView[]> {
  return (await store.listMembers(ctx.store.db, id, limit)).map((m) => ({ userId: m.user_id, email: m.email, role: m.role, joinedAt: Number(m.created_at) }));
}

/** The target's membership (by any of their user ids) and, for a member acting, the actor's role, read in `tx`. */
async function readParties(tx: Kysely<DB>, id: string, actor: Actor, targetUserId: string) {
  if (!(await store.lockOrganization(tx, id))) throw notFound();
  let actorRole: string | undefined;
  if ("personId" in actor) {
    actorRole = (await store.findMembership(tx, id, actor.personId))?.role;
    if (actorRole === undefined) throw notFound();
  }
  const person = await findPersonId(tx, targetUserId);
  const target = person === undefined ? undefined : await store.findMembership(tx, id, person);
  if (!target || person === undefined) throw new AuthError("NOT_FOUND", "No such member");
  return { actorRole, target, person };
}

/**
 * Gives a member another role. A member may only act on, and hand out, roles whose permissions
 * they all have (an owner on any); the last owner cannot be demoted.
 */
export async function changeMemberRole(ctx: CoreContext, id: string, actor: Actor, targetUserId: string, role: unknown): Promise<MemberView> {
  if (typeof role !== "string" || !role) throw badInput("role is required: owner, admin, member or a role the operator defined");
  const now = ctx.clock.now();
  return ctx.store.writeTx(async (tx) => {
    const { actorRole, target, person } = await readParties(tx, id, actor, targetUserId);
    await checkOrganizationRole(tx, role);
    if (actorRole !== undefined && !((await outranks(tx, actorRole, target.role)) && (await outranks(tx, actorRole, role)))) throw notAbove();
    if (target.role === OWNER && role !== OWNER && (await store.countRole(tx, id, OWNER)) <= 1) throw lastOwner();
    if (target.role !== role) {
      await store.setMemberRole(tx, id, target.user_id, role);
      await insertEvent(tx, { at: now, type: "organization.member_role_changed", userId: person, data: { organizationId: id, from: target.role, role, by: actorId(actor), source: sourceOf(actor) } });
    }
    const email = (await tx.selectFrom("users").select("email").where("id", "=", target.user_id).executeTakeFirst())?.email ?? "";
    return { userId: target.user_id, email, role, joinedAt: Number(target.created_at) };
  });
}

/** Removes a member (the same rank rule as a role change); the last owner cannot be removed. */
export async function removeMember(ctx: CoreContext, id: string, actor: Actor, targetUserId: string): Promise<void> {
  const now = ctx.clock.now();
  await ctx.store.writeTx(async (tx) => {
    const { actorRole, target, person } = await readParties(tx, id, actor, targetUserId);
    if (actorRole !== undefined && !(await outranks(tx, actorRole, target.role))) throw notAbove();
    if (target.role === OWNER && (await store.countRole(tx, id, OWNER)) <= 1) throw lastOwner();
    await store.deleteMember(tx, id, target.user_id);
    await insertEvent(tx, { at: now, type: "organization.member_removed", userId: person, data: { organizationId: id, role: target.role, by: actorId(actor), source: sourceOf(actor) } });
  });
}

/** The person leaves; the last owner cannot. */
export async function leaveOrganization(ctx: CoreContext, id: string, personId: string): Promise<void> {
  const now = ctx.clock.now();
  await ctx.store.writeTx(async (tx) => {
    if (!(await store.lockOrganization(tx, id))) throw notFound();
    const m = await store.findMembership(tx, id, personId);
    if (!m) throw notFound();
    if (m.role === OWNER && (await store.countRole(tx, id, OWNER)) <= 1) throw lastOwner();
    await store.deleteMember(tx, id, m.user_id);
    await insertEvent(tx, { at: now, type: "organization.member_left", userId: personId, data: { organizationId: id, role: m.role, source: "api" } });
  });
}

/**
 * Adds a person to an organization as the operator (admin API, CLI), or changes nothing when they
 * are a member already. The role must exist.
 */
export async function addMember(ctx: CoreContext, id: string, userId: string, role: string, source: string): Promise<MemberView> {
  const now = ctx.clock.now();
  return ctx.store.writeTx(async (tx) => {
    if (!(await store.lockOrganization(tx, id))) throw notFound();
    await checkOrganizationRole(tx, role);
    const person = await findPersonId(tx, userId);
    if (person === undefined) throw new AuthError("NOT_FOUND", "No such user");
    const existing = await store.findMembership(tx, id, person);
    if (existing) throw new AuthError("CONFLICT", "Already a member (change their role instead)");
    await store.insertMember(tx, { organization_id: id, user_id: person, role, created_at: now, active_at: null });
    await insertEvent(tx, { at: now, type: "organization.member_added", userId: person, data: { organizationId: id, role, source } });
    const email = (await tx.selectFrom("users").select("email").where("id", "=", person).executeTakeFirst())?.email ?? "";
    return { userId: person, email, role, joinedAt: now };
  });
}
