import type { Route } from "../http/route.js";
import { cancelMyDeletion, changeMyEmail, changeMyLocale, changeMyPassword, confirmMyEmail, deleteMyAccount, me, mySessions, revokeSessions } from "./handlers/account.js";
import { myLogins, removeLogin } from "./handlers/logins.js";

const tokenSubmission = ["invalid-token-ip", "token-ip"] as const;

/** The self-service account's slice of the route table (http/routes.ts lists it with the others). */
export const accountRoutes: readonly Route[] = [
  { method: "GET", path: "/account/me", session: "required+db", handler: me },
  { method: "POST", path: "/account/locale", session: "required+db", handler: changeMyLocale },
  { method: "GET", path: "/account/sessions", session: "required+db", handler: mySessions },
  { method: "POST", path: "/account/sessions/revoke", session: "required+db", handler: revokeSessions },
  // A wrong current password is a guess like a failed sign-in: the same per-IP bucket.
  { method: "POST", path: "/account/password", session: "required+db", support: "refused", handler: changeMyPassword, limits: ["signin-ip"] },
  { method: "POST", path: "/account/email", session: "required+db", support: "refused", handler: changeMyEmail, limits: ["signin-ip", "mail-ip"] },
  { method: "POST", path: "/account/email/confirm", session: "none", handler: confirmMyEmail, limits: tokenSubmission },
  { method: "POST", path: "/account/delete", session: "required+db", support: "refused", handler: deleteMyAccount, limits: ["signin-ip"] },
  { method: "GET", path: "/account/logins", session: "required+db", handler: myLogins },
  // A wrong password is a guess like a failed sign-in: the same per-IP bucket.
  { method: "POST", path: "/account/logins/remove", session: "required+db", support: "refused", handler: removeLogin, limits: ["signin-ip"] },
  { method: "POST", path: "/account/delete/cancel", session: "none", handler: cancelMyDeletion, limits: tokenSubmission },
];
