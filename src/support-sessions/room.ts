import type { Room } from "../kernel/room.js";
import { supportPersonPage } from "./admin.js";
import { lapsedSupportSessions, mergeSupportSessions } from "./purge.js";
import { supportOpenapi } from "./openapi.js";
import { supportRoutes } from "./routes.js";
import { supportSessionWays } from "./support.js";

/**
 * Support sessions (docs/security.md, "Support sessions"): an admin on the dashboard's person page
 * signs in to the app as the person for at most 15 minutes, after a reason and their own second
 * factor. The session carries the `act` claim, cannot change credentials, factors, logins or
 * grants (the routes declare `support: "refused"`), is listed among the person's sessions, is its
 * own way in (every security event ends it), and is in the audit log and the webhooks.
 */
export const supportSessionsRoom: Room = {
  id: "support-sessions",
  routes: supportRoutes,
  openapi: supportOpenapi,
  waysIn: [supportSessionWays],
  events: { "support_session.started": { type: "support_session.started" }, "support_session.ended": { type: "support_session.ended" } },
  personPage: supportPersonPage,
  purge: [lapsedSupportSessions],
  mergePerson: mergeSupportSessions,
};
