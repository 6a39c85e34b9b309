import type { DashboardRoute } from "../kit.js";
import { showUsers, USERS_PATH } from "./list-page.js";
import { changePassword, clearLocks, linkOther, markVerified, onPerson, removePerson, resetMfa, revokeAll, revokeGrant, revokeOne, sendResetLink, unlinkMethod } from "./person-actions.js";
import { showPerson } from "./person-page.js";

const person = `${USERS_PATH}/:id`;

/** The users room: the search, a person's page, and every action on a person (all POST, post/redirect/get). */
export const userRoutes: DashboardRoute[] = [
  { method: "GET", path: USERS_PATH, handler: showUsers },
  { method: "GET", path: person, handler: showPerson },
  { method: "POST", path: `${person}/verified`, handler: onPerson(markVerified) },
  { method: "POST", path: `${person}/sessions/revoke`, handler: onPerson(revokeOne) },
  { method: "POST", path: `${person}/sessions/revoke-all`, handler: onPerson(revokeAll) },
  { method: "POST", path: `${person}/oauth-grants/revoke`, handler: onPerson(revokeGrant) },
  { method: "POST", path: `${person}/mfa/reset`, handler: onPerson(resetMfa) },
  { method: "POST", path: `${person}/locks/clear`, handler: onPerson(clearLocks) },
  { method: "POST", path: `${person}/reset-link`, handler: onPerson(sendResetLink) },
  { method: "POST", path: `${person}/password`, handler: onPerson(changePassword) },
  { method: "POST", path: `${person}/link`, handler: onPerson(linkOther) },
  { method: "POST", path: `${person}/unlink`, handler: onPerson(unlinkMethod) },
  { method: "POST", path: `${person}/delete`, handler: onPerson(removePerson) },
];
