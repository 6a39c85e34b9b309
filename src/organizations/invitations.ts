import type { Kysely } from "kysely";
import type { CoreContext } from "../core/context.js";
import { canonicalEmail, isValidEmail } from "../core/emails.js";
import { AuthError, badInput } from "../core/errors.js";
import { enforceLimit } from "../core/limits.js";
import { notifyOutbox, queueMail } from "../core/mail-queue.js";
import { insertEvent } from "../store/events.js";
import { findPeopleByAddress } from "../core/logins.js";
import { isVerifiedForPerson } from "../store/people.js";
import type { DB } from "../store/schema.js";
import { createId, createSecretToken, hashToken } from "../util/random.js";
import { checkOrganizationRole, MEMBER_FALLBACK, outranks, permissionsOfRole } from "./org-roles.js";
import { notFound, type Actor } from "./organizations.js";
import * as store from "./store.js";

/**
 * Invitations by address: a 256-bit token (only its SHA-256 stored) mailed from the outbox after
 * the commit, valid config.organizationInvitationLifetimeMs (7 days by default), single use,
 * revocable; a resend mails a new token (the old link stops working) within the per-address mail
 * budget. Accepting needs a session of a person who has the invited address verified.
 */

export interface InvitationView { id: string; organizationId: string; email: string; role: string; createdAt: number; expiresAt: number; invitedBy: string | null }
const toView = (r: store.InvitationRow): InvitationView => ({ id: r.id, organizationId: r.organization_id, email: r.email, role: r.role, createdAt: Number(r.created_at), expiresAt: Number(r.expires_at), invitedBy: r.invited_by });
const noInvitation = () => new AuthError("NOT_FOUND", "No such open invitation");

/** Where the invitation mail's link goes: the accept page of the hosted pages, or of the app's website. */
function acceptLink(ctx: CoreContext, token: string): string {
  const origin = ctx.config.hostedPages ? ctx.config.publicUrl : ctx.config.websiteUrl;
  return `${origin}${ctx.config.websiteBasePath}/accept-invitation?token=${encodeURIComponent(token)}`;
}

async function queueInvitation(tx: Kysely<DB>, ctx: CoreContext, org: store.OrganizationRow, inv: { email: string; role: string }, token: string, expiresAt: number) {
  await queueMail(tx, ctx, { kind: "organization_invitation", to: inv.email, vars: { link: acceptLink(ctx, token), expiresAt, validForMs: ctx.config.organizationInvitationLifetimeMs, details: `${org.name} (${inv.role})` } });
}

/** The acting member's role in `tx` (undefined for the operator); 404 when they are not a member. */
async function actorRole(tx: Kysely<DB>, id: string, actor: Actor): Promise<string | undefined> {
  if (!("personId" in actor)) return undefined;
  const role = (await store.findMembership(tx, id, actor.personId))?.role;
  if (role === undefined) throw notFound();
  return role;
}

/**
 * Invites an address with a role (which the inviter must outrank). Refused with 409 when the
 * address's person is a member already or an open invitation exists (resend that one).
 */
export async function createInvitation(ctx: CoreContext, id: string, actor: Actor, input: { email: unknown; role: unknown }): Promise<InvitationView> {
  if (typeof input.email !== "string") throw badInput("email is required");
  const email = canonicalEmail(input.email);
  if (!isValidEmail(email)) throw badInput("email is not a valid address");
  const role = typeof input.role === "string" && input.role ? input.role : MEMBER_FALLBACK;
  const now = ctx.clock.now();
  const token = createSecretToken();
  // The address's mail budget (the same hourly cap as reset and verification mail), counted
  // before the transaction (the counters commit on their own); the guard has already refused
  // anyone who may not invite.
  await enforceLimit(ctx, "mail-hourly", email);
  const view = await ctx.store.writeTx(async (tx) => {
    if (!(await store.lockOrganization(tx, id))) throw notFound();
    const mine = await actorRole(tx, id, actor);
    await checkOrganizationRole(tx, role);
    if (mine !== undefined && !(await outranks(tx, mine, role))) throw new AuthError("FORBIDDEN", "You cannot invite with a role that has permissions you do not have");
    for (const p of await findPeopleByAddress(tx, ctx.logins, email)) {
      if (await store.findMembership(tx, id, p.personId)) throw new AuthError("CONFLICT", "That address's person is a member already");
    }
    if (await store.findOpenInvitation(tx, id, email, now)) throw new AuthError("CONFLICT", "That address has an open invitation: resend or revoke it");
    const org = (await store.findOrganization(tx, id))!;
    const row: store.InvitationRow = { id: createId(), organization_id: id, email, role, token_hash: hashToken(token), invited_by: "personId" in actor ? actor.personId : null, created_at: now, expires_at: now + ctx.config.organizationInvitationLifetimeMs, sent_at: now, accepted_at: null, accepted_by: null, revoked_at: null };
    await store.insertInvitation(tx, row);
    await queueInvitation(tx, ctx, org, row, token, row.expires_at);
    await insertEvent(tx, { at: now, type: "organization.invitation_created", userId: row.invited_by, data: { organizationId: id, invitationId: row.id, email, role, source: "personId" in actor ? "api" : actor.operator } });
    return toView(row);
  });
  notifyOutbox(ctx);
  return view;
}

/** The organization's open invitations, newest first. */
export async function listInvitations(ctx: CoreContext, id: string): Promise<InvitationView[]> {
  return (await store.listOpenInvitations(ctx.store.db, id, ctx.clock.now(), 1000)).map(toView);
}

/** Revokes an open invitation (its link stops working). */
export async function revokeInvitation(ctx: CoreContext, id: string, actor: Actor, invitationId: string): Promise<void> {
  const now = ctx.clock.now();
  await ctx.store.writeTx(async (tx) => {
    if (!(await store.lockOrganization(tx, id))) throw notFound();
    const mine = await actorRole(tx, id, actor);
    const inv = await store.findInvitation(tx, id, invitationId);
    if (!inv || inv.accepted_at !== null || inv.revoked_at !== null) throw noInvitation();
    if (mine !== undefined && !(await outranks(tx, mine, inv.role))) throw new AuthError("FORBIDDEN", "You cannot revoke an invitation with a role that has permissions you do not have");
    await store.markRevoked(tx, inv.id, now);
    await insertEvent(tx, { at: now, type: "organization.invitation_revoked", userId: "personId" in actor ? actor.personId : null, data: { organizationId: id, invitationId: inv.id, email: inv.email, source: "personId" in actor ? "api" : actor.operator } });
  });
}

/** Mails a new token for an open (or expired, not accepted or revoked) invitation, with a new expiry. */
export async function resendInvitation(ctx: CoreContext, id: string, actor: Actor, invitationId: string): Promise<InvitationView> {
  const now = ctx.clock.now();
  const token = createSecretToken();
  const before = await store.findInvitation(ctx.store.db, id, invitationId);
  if (!before || before.accepted_at !== null || before.revoked_at !== null) throw noInvitation();
  await enforceLimit(ctx, "mail-hourly", before.email);
  const view = await ctx.store.writeTx(async (tx) => {
    if (!(await store.lockOrganization(tx, id))) throw notFound();
    const mine = await actorRole(tx, id, actor);
    const inv = await store.findInvitation(tx, id, invitationId);
    if (!inv || inv.accepted_at !== null || inv.revoked_at !== null) throw noInvitation();
    if (mine !== undefined && !(await outranks(tx, mine, inv.role))) throw new AuthError("FORBIDDEN", "You cannot resend an invitation with a role that has permissions you do not have");
    const expiresAt = now + ctx.config.organizationInvitationLifetimeMs;
    await store.renewInvitation(tx, inv.id, hashToken(token), expiresAt, now);
    await queueInvitation(tx, ctx, (await store.findOrganization(tx, id))!, inv, token, expiresAt);
    await insertEvent(tx, { at: now, type: "organization.invitation_resent", userId: "personId" in actor ? actor.personId : null, data: { organizationId: id, invitationId: inv.id, email: inv.email, source: "personId" in actor ? "api" : actor.operator } });
    return { ...toView(inv), expiresAt };
  });
  notifyOutbox(ctx);
  return view;
}

export type AcceptResult =
  | { status: "OK"; organizationId: string; role: string }
  | { status: "INVITATION_INVALID_TOKEN_ERROR" }
  | { status: "INVITATION_EMAIL_NOT_VERIFIED_ERROR" };

/**
 * Accepts an invitation for the signed-in person: the token must be open (not used, revoked or
 * expired: all the same answer), and the person must have the invited address verified on one of
 * their login methods. The person joins with the invited role (a role the operator deleted
 * meanwhile falls back to member) and the organization becomes their active one.
 */
export async function acceptInvitation(ctx: CoreContext, personId: string, token: unknown): Promise<AcceptResult> {
  if (typeof token !== "string" || !token) throw badInput("token is required");
  const now = ctx.clock.now();
  return ctx.store.writeTx(async (tx): Promise<AcceptResult> => {
    const inv = await findOpenInvitationByToken(tx, token, now);
    if (!inv) return { status: "INVITATION_INVALID_TOKEN_ERROR" };
    if (!(await isVerifiedForPerson(tx, personId, inv.email))) return { status: "INVITATION_EMAIL_NOT_VERIFIED_ERROR" };
    return joinByInvitation(tx, inv, personId, now);
  });
}

/** The invitation of a mailed token while it is open (not used, revoked or expired: all alike). */
export async function findOpenInvitationByToken(tx: Kysely<DB>, token: string, now: number): Promise<store.InvitationRow | undefined> {
  const inv = await store.findInvitationByHash(tx, hashToken(token));
  return !inv || inv.accepted_at !== null || inv.revoked_at !== null || inv.expires_at <= now ? undefined : inv;
}

/**
 * In the caller's transaction: `personId`, who has the invited address verified, takes the open
 * invitation `inv` and joins with its role (a role deleted meanwhile: member); the organization
 * becomes their active one. INVITATION_INVALID_TOKEN_ERROR when another request took it first.
 */
export async function joinByInvitation(tx: Kysely<DB>, inv: store.InvitationRow, personId: string, now: number): Promise<AcceptResult> {
  await store.lockOrganization(tx, inv.organization_id);
  if (!(await store.markAccepted(tx, inv.id, personId, now))) return { status: "INVITATION_INVALID_TOKEN_ERROR" };
  const role = (await permissionsOfRole(tx, inv.role)) === undefined ? MEMBER_FALLBACK : inv.role;
  const existing = await store.findMembership(tx, inv.organization_id, personId);
  if (existing) {
    await store.setMemberActive(tx, inv.organization_id, existing.user_id, personId, now);
    return { status: "OK", organizationId: inv.organization_id, role: existing.role };
  }
  await store.insertMember(tx, { organization_id: inv.organization_id, user_id: personId, role, created_at: now, active_at: null });
  await store.setMemberActive(tx, inv.organization_id, personId, personId, now);
  await insertEvent(tx, { at: now, type: "organization.invitation_accepted", userId: personId, data: { organizationId: inv.organization_id, invitationId: inv.id, role, source: "api" } });
  await insertEvent(tx, { at: now, type: "organization.member_added", userId: personId, data: { organizationId: inv.organization_id, role, source: "invitation" } });
  return { status: "OK", organizationId: inv.organization_id, role };
}
