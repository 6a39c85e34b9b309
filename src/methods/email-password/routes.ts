import type { Route } from "../../http/route.js";
import { emailExists } from "./handlers/email-exists.js";
import { passwordReset } from "./handlers/password-reset.js";
import { passwordResetToken } from "./handlers/password-reset-token.js";
import { signIn } from "./handlers/signin.js";
import { signUp } from "./handlers/signup.js";

const tokenSubmission = ["invalid-token-ip", "token-ip"] as const;

/** Email/password's slice of the route table (http/routes.ts lists it with the others). */
export const emailPasswordRoutes: readonly Route[] = [
  { method: "POST", path: "/signup", session: "optional", support: "refused", handler: signUp, limits: ["signup-ip"], challenge: { action: "sign-up" } },
  { method: "POST", path: "/signin", session: "optional", support: "refused", handler: signIn, limits: ["signin-ip"], challenge: { action: "sign-in", perAddress: ["signin-failures"] } },
  { method: "GET", path: "/emailpassword/email/exists", session: "none", handler: emailExists, limits: ["email-exists-ip"] },
  { method: "GET", path: "/signup/email/exists", session: "none", handler: emailExists, limits: ["email-exists-ip"] },
  { method: "POST", path: "/user/password/reset/token", session: "none", handler: passwordResetToken, limits: ["mail-ip"], challenge: { action: "reset", perAddress: ["reset-cooldown", "mail-hourly"] } },
  { method: "POST", path: "/user/password/reset", session: "none", handler: passwordReset, limits: tokenSubmission },
];
