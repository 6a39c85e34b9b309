import type { AdminRoute } from "./route.js";
import { webhookAdminRoutes } from "../../webhooks/admin.js";
import { linkUsersHandler, unlinkUserHandler } from "./links.js";
import { resetMfaHandler } from "./mfa.js";
import { removeUserPasskey, userPasskeys } from "./passkeys.js";
import { revokeOneSession, revokeUserSessionsHandler, userSessions } from "./sessions.js";
import { roleAdminRoutes } from "../../roles/admin.js";
import { metadataAdminRoutes } from "../../metadata/admin.js";
import { createUserHandler, deleteUserHandler, getUserHandler, listUsersHandler, resetLinkHandler, setPasswordHandler, setVerifiedHandler } from "./users.js";

export { ADMIN_PREFIX, type AdminRoute } from "./route.js";

export const adminRoutes: readonly AdminRoute[] = [
  { method: "GET", path: "/users", handler: listUsersHandler }, // ?email=E | ?search=&limit=&cursor=
  { method: "POST", path: "/users", handler: createUserHandler },
  { method: "GET", path: "/users/:id", handler: getUserHandler },
  { method: "DELETE", path: "/users/:id", handler: deleteUserHandler },
  { method: "PUT", path: "/users/:id/verified", handler: setVerifiedHandler },
  { method: "PUT", path: "/users/:id/password", handler: setPasswordHandler },
  { method: "POST", path: "/users/:id/reset-link", handler: resetLinkHandler },
  { method: "POST", path: "/users/:id/links", handler: linkUsersHandler },
  { method: "DELETE", path: "/users/:id/links", handler: unlinkUserHandler },
  { method: "GET", path: "/users/:id/sessions", handler: userSessions },
  { method: "DELETE", path: "/users/:id/sessions", handler: revokeUserSessionsHandler },
  { method: "DELETE", path: "/users/:id/mfa", handler: resetMfaHandler },
  { method: "DELETE", path: "/sessions/:handle", handler: revokeOneSession },
  { method: "GET", path: "/users/:id/passkeys", handler: userPasskeys },
  { method: "DELETE", path: "/users/:id/passkeys/:credentialId", handler: removeUserPasskey },
  ...webhookAdminRoutes,
  ...roleAdminRoutes,
  ...metadataAdminRoutes,
];
