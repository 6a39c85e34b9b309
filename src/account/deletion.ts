import type { CoreContext } from "../core/context.js";
import type { MergePerson } from "../core/logins.js";
import { notifyOutbox, queueMail, websiteLink } from "../core/mail-queue.js";
import { deleteUser } from "../core/users.js";
import { AuthError, badInput } from "../core/errors.js";
import { checkPersonDeletion } from "../core/person-deletion.js";
import { countEnded, endWaysIn } from "../core/ways-in.js";
import { insertEvent } from "../store/events.js";
import { findUserById } from "../store/users.js";
import { createSecretToken, hashToken } from "../util/random.js";
import { runEvery } from "../util/run-every.js";
import { findMembers, reauthenticate, type AccountSubject } from "./reauth.js";
import * as store from "./store.js";

export type DeletionResult =
  | { status: "OK"; deleted: true }
  | { status: "OK"; deleted: false; deleteAt: number }
  | { status: "WRONG_CREDENTIALS_ERROR" }
  | { status: "REAUTHENTICATION_REQUIRED" };

/** The link in the grace mail that keeps the account (the account page reads `action` and `token`). */
export function cancelDeletionLink(ctx: CoreContext, token: string): string {
  return `${websiteLink(ctx, "account")}?action=cancel-deletion&token=${encodeURIComponent(token)}`;
}

/**
 * The signed-in person deletes their account, after re-authenticating (reauth.ts). With a grace
 * period (config.accountDeletionGraceMs, default 7 days), in one transaction: the deletion is
 * scheduled, every way in of the person ends (core/ways-in.ts; this session too), `user.deletion_scheduled`, and
 * the grace mail with a link that cancels it; deleteDueAccounts deletes for good once it passes
 * (`user.deleted`). With no grace the person is deleted at once (`user.deleted`). A room that
 * refuses the deletion (core/person-deletion.ts) makes it a 409 with its reason, nothing scheduled.
 */
export async function requestDeletion(ctx: CoreContext, s: AccountSubject, password: unknown): Promise<DeletionResult> {
  const proof = await reauthenticate(ctx, s, password);
  if (proof === "wrong") return { status: "WRONG_CREDENTIALS_ERROR" };
  if (proof === "required") return { status: "REAUTHENTICATION_REQUIRED" };
  // A room's refusal (409 with its reason) comes before anything is scheduled.
  await checkPersonDeletion(ctx.store.db, ctx, s.personId);
  if (ctx.config.accountDeletionGraceMs === 0) {
    await deleteUser(ctx, s.personId, "account");
    return { status: "OK", deleted: true };
  }
  const now = ctx.clock.now();
  const deleteAt = now + ctx.config.accountDeletionGraceMs;
  const token = createSecretToken();
  await ctx.store.writeTx(async (tx) => {
    const found = await findMembers(tx, s.userId);
    const person = found && (await findUserById(tx, found.personId));
    if (!found || !person) return;
    await store.upsertDeletion(tx, { user_id: found.personId, requested_at: now, delete_at: deleteAt, cancel_token_hash: hashToken(token) });
    const ended = countEnded(await endWaysIn(tx, ctx, { userId: found.personId, reason: "account_deletion", source: "account" }));
    await insertEvent(tx, { at: now, type: "user.deletion_scheduled", userId: found.personId, data: { deleteAt, revokedSessions: ended.sessions ?? 0, endedWaysIn: ended, source: "account" } });
    await queueMail(tx, ctx, { kind: "account_deletion", to: person.email, vars: { link: cancelDeletionLink(ctx, token), expiresAt: deleteAt } });
  });
  notifyOutbox(ctx);
  return { status: "OK", deleted: false, deleteAt };
}

/** Keeps an account whose deletion was scheduled: the token from the grace mail. */
export async function cancelDeletion(ctx: CoreContext, token: unknown): Promise<{ status: "OK" } | { status: "DELETION_CANCEL_INVALID_TOKEN_ERROR" }> {
  if (typeof token !== "string") throw badInput("token is required and must be a string");
  const now = ctx.clock.now();
  return ctx.store.writeTx(async (tx) => {
    const personId = await store.takeDeletion(tx, hashToken(token));
    if (personId === undefined) return { status: "DELETION_CANCEL_INVALID_TOKEN_ERROR" as const };
    await insertEvent(tx, { at: now, type: "user.deletion_cancelled", userId: personId, data: { source: "account" } });
    return { status: "OK" as const };
  });
}

/**
 * Deletes the people whose grace period has passed (each in its own transaction); returns how many.
 * One a room refuses now (it became the only owner of an organization during the grace period)
 * stays scheduled and is tried again at the next run, with a warning naming the reason.
 */
export async function deleteDueAccounts(ctx: CoreContext, limit = 100): Promise<number> {
  let n = 0;
  for (const id of await store.listDueDeletions(ctx.store.db, ctx.clock.now(), limit)) {
    try {
      if (await deleteUser(ctx, id, "account-deletion")) n++;
    } catch (err) {
      if (!(err instanceof AuthError && err.code === "CONFLICT")) throw err;
      ctx.logger.warn("a scheduled account deletion is refused for now", { userId: id, reason: err.message });
    }
  }
  return n;
}

/** Runs deleteDueAccounts every `everyMs` (unref'd; one run at a time). Returns a stop function. */
export function scheduleAccountDeletions(ctx: CoreContext, everyMs = 60_000): () => Promise<void> {
  return runEvery(everyMs, () => deleteDueAccounts(ctx)
    .then((n) => { if (n > 0) ctx.logger.info("deleted accounts whose grace period passed", { count: n }); })
    .catch((err) => ctx.logger.warn("account deletion failed", { err })));
}

/** Two people joined (core/person-join.ts): a pending deletion of the one who leaves is cancelled (it would delete both). */
export const cancelDeletionOnJoin: MergePerson = async (db, _ctx, { from }) =>
  ({ cancelledDeletion: Number((await db.deleteFrom("account_deletions").where("user_id", "=", from).executeTakeFirst()).numDeletedRows) > 0 });
