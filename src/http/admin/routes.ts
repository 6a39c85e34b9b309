import type { AdminRoute } from "./route.js";
import { linkUsersHandler, unlinkUserHandler } from "./links.js";
import { revokeOneSession, revokeUserSessionsHandler, userSessions } from "./sessions.js";
import { createUserHandler, deleteUserHandler, getUserHandler, listUsersHandler, setVerifiedHandler } from "./users.js";

/** The kernel's admin routes (users, sessions, links); each room adds its own (src/kernel/room.ts). */
export const kernelAdminRoutes: readonly AdminRoute[] = [
  { method: "GET", path: "/users", handler: listUsersHandler }, // ?email=E | ?search=&limit=&cursor=
  { method: "POST", path: "/users", handler: createUserHandler },
  { method: "GET", path: "/users/:id", handler: getUserHandler },
  { method: "DELETE", path: "/users/:id", handler: deleteUserHandler },
  { method: "PUT", path: "/users/:id/verified", handler: setVerifiedHandler },
  { method: "POST", path: "/users/:id/links", handler: linkUsersHandler },
  { method: "DELETE", path: "/users/:id/links", handler: unlinkUserHandler },
  { method: "GET", path: "/users/:id/sessions", handler: userSessions },
  { method: "DELETE", path: "/users/:id/sessions", handler: revokeUserSessionsHandler },
  { method: "DELETE", path: "/sessions/:handle", handler: revokeOneSession },
];
