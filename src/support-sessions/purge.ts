import type { MergePerson } from "../core/logins.js";
import type { PurgeRule } from "../core/purge.js";
import { moveSupportSessions } from "./store.js";
import { settleLapsed } from "./support.js";

/** How long an ended support session's row is kept (the audit log keeps its story for --audit-retention). */
const ENDED_KEEP_MS = 7 * 24 * 3_600_000;

/** The purge's rule: support sessions that ran out get their `support_session.ended`; ended ones go after a week. */
export const lapsedSupportSessions: PurgeRule = {
  name: "supportSessions",
  run: (ctx, now, limit) => settleLapsed(ctx, now, limit, ENDED_KEEP_MS),
};

/** Two people joined: the support sessions of the one joined in are the other's. */
export const mergeSupportSessions: MergePerson = async (tx, _ctx, p) => ((await moveSupportSessions(tx, p.from, p.to)) > 0 ? { supportSessions: true } : {});
