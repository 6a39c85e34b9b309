import type { CoreContext } from "../../core/context.js";
import { notifyOutbox, queueMail } from "../../core/mail-queue.js";
import { dropRequiredFactor } from "../../core/mfa.js";
import { insertEvent } from "../../store/events.js";
import { findPersonId } from "../../store/people.js";
import { findUserById } from "../../store/users.js";
import { secondFactorLink } from "./recovery-codes.js";
import { deleteSecondFactorData } from "./store.js";

export type ResetResult = { status: "NOT_FOUND" } | { status: "OK"; userId: string; removedDevices: number; changed: boolean };

/**
 * The operator's `users mfa reset` (CLI, admin API and dashboard): removes a user's TOTP devices, recovery
 * codes and TOTP requirement in one transaction, records `mfa.reset` and mails the user, so a lost
 * phone is one command and never a silent change. With `--mfa required` the user sets a new
 * device up at the next sign-in. Resetting a user without a second factor changes nothing.
 */
export async function resetSecondFactor(ctx: CoreContext, userId: string, source: string): Promise<ResetResult> {
  const now = ctx.clock.now();
  const r = await ctx.store.writeTx(async (tx): Promise<ResetResult> => {
    const personId = await findPersonId(tx, userId);
    if (personId === undefined) return { status: "NOT_FOUND" };
    const removedDevices = await deleteSecondFactorData(tx, personId);
    const wasRequired = await dropRequiredFactor(tx, personId, "totp");
    const changed = removedDevices > 0 || wasRequired;
    if (changed) {
      await insertEvent(tx, { at: now, type: "mfa.reset", userId: personId, data: { source, removedDevices } });
      const person = await findUserById(tx, personId);
      if (person) await queueMail(tx, ctx, { kind: "mfa_reset", to: person.email, vars: { link: secondFactorLink(ctx) } });
    }
    return { status: "OK", userId: personId, removedDevices, changed };
  });
  if (r.status === "OK" && r.changed) notifyOutbox(ctx);
  return r;
}
