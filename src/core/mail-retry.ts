import { insertEvent } from "../store/events.js";
import { advanceRetry, hasOutboxMessage } from "../store/outbox.js";
import { AuthError, badInput } from "./errors.js";
import type { CoreContext } from "./context.js";
import { notifyOutbox } from "./mail-queue.js";

/**
 * Sends a failing message now instead of at its next attempt (the relay is back; why wait out the
 * backoff), with a `mail.retry_requested` event naming who asked (`cli`, `admin:<id>`). A message
 * already given up cannot be: its body was erased when it was given up (it held a link); the user
 * asks for a new mail instead.
 */
export async function retryMailNow(ctx: CoreContext, id: string, source = "api"): Promise<void> {
  const now = ctx.clock.now();
  const done = await ctx.store.writeTx(async (tx) => {
    if (!(await advanceRetry(tx, id, now))) return false;
    await insertEvent(tx, { at: now, type: "mail.retry_requested", userId: null, data: { outboxId: id, source } });
    return true;
  });
  if (!done) {
    if (!(await hasOutboxMessage(ctx.store.db, id))) throw new AuthError("NOT_FOUND", "No such message in the outbox");
    throw badInput("Only a message waiting to be retried can be sent now (a given-up message has no body left to send).");
  }
  notifyOutbox(ctx);
}
