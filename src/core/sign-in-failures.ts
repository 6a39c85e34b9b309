import { insertEvent } from "../store/events.js";
import type { CoreContext } from "./context.js";
import { SIGN_IN_FAILED_EVENT } from "./ops-views.js";

/**
 * Records a wrong email/password pair as an event, so operators can count today's failures (the
 * dashboard's overview). It runs after the answer (ctx.deferred): the answer's time must not depend
 * on it, and a failure to record must not turn into a failed request. The event names no address
 * and no user: a guess at an unknown address is recorded exactly like one at a known account.
 */
export function recordFailedSignIn(ctx: CoreContext, method: string): void {
  ctx.deferred.run("sign_in_failed.event", () => ctx.store.writeTx((tx) => insertEvent(tx, { at: ctx.clock.now(), type: SIGN_IN_FAILED_EVENT, userId: null, data: { method } })));
}
