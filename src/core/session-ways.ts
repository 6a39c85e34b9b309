import { listLiveSessions } from "../store/session-list.js";
import { revokeSessionsOf } from "../store/sessions.js";
import type { WayIn } from "./ways-in.js";

/**
 * The kernel's own way in: its sessions (each with its rotating refresh token). A session is held
 * by the login it signed in with, so an event ends those of the logins it names, all but the
 * session that asked when the event's rule keeps it. Its access token is a JWT backends check by
 * signature: it stays valid until it expires (access-token-lifetime), as after a sign-out.
 * A session someone else acts in (`actor`: a support session) is the way in of the room that opens
 * them, which lists and ends it with what it records (src/support-sessions): not counted twice.
 */
export const sessionWays: WayIn = {
  id: "sessions",
  names: { one: "session", many: "sessions" },
  list: async (db, ctx, target) => (await listLiveSessions(db, [...target.logins], ctx.clock.now())).filter((s) => s.actor === null)
    .map((s) => ({ id: s.handle, since: Number(s.created_at), until: Number(s.expires_at), login: s.user_id })),
  end: (tx, _ctx, target, how) => revokeSessionsOf(tx, target.logins, { now: how.now, reason: how.reason, keep: how.keepSession, own: true }),
};
