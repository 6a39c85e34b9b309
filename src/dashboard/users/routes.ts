import type { PersonPagePart } from "../../http/person-panels.js";
import type { DashboardRoute } from "../kit.js";
import { showUsers, USERS_PATH } from "./list-page.js";
import { clearLocks, linkOther, markVerified, onPerson, removePerson, revokeAll, revokeOne, roomAction, unlinkMethod } from "./person-actions.js";
import { showPerson } from "./person-page.js";

const person = `${USERS_PATH}/:id`;

/**
 * The users room: the search, a person's page, and every action on a person (all POST,
 * post/redirect/get), the rooms' own actions (Room.personPage) among them.
 */
export function userRoutes(rooms: Required<PersonPagePart>): DashboardRoute[] {
  const routes: DashboardRoute[] = [
    { method: "GET", path: USERS_PATH, handler: showUsers },
    { method: "GET", path: person, handler: showPerson(rooms) },
    { method: "POST", path: `${person}/verified`, handler: onPerson(markVerified) },
    { method: "POST", path: `${person}/sessions/revoke`, handler: onPerson(revokeOne) },
    { method: "POST", path: `${person}/sessions/revoke-all`, handler: onPerson(revokeAll) },
    { method: "POST", path: `${person}/locks/clear`, handler: onPerson(clearLocks) },
    { method: "POST", path: `${person}/link`, handler: onPerson(linkOther) },
    { method: "POST", path: `${person}/unlink`, handler: onPerson(unlinkMethod) },
    { method: "POST", path: `${person}/delete`, handler: onPerson(removePerson) },
  ];
  for (const a of rooms.actions) {
    const path = `${person}/${a.path}`;
    if (routes.some((r) => r.path === path)) throw new Error(`the person page's action ${a.path} is the dashboard's own`);
    routes.push({ method: "POST", path, handler: onPerson(roomAction(a)) });
  }
  return routes;
}
