import type { Route } from "../../http/route.js";
import { addCredentialHandler, listCredentialsHandler, removeCredentialHandler } from "./handlers/credentials.js";
import { passkeyEmailExistsHandler } from "./handlers/email-exists.js";
import { registerOptions, signInOptions } from "./handlers/options.js";
import { recoverAccount, recoveryToken } from "./handlers/recovery.js";
import { passkeySignIn, passkeySignUp } from "./handlers/sign-in-up.js";

/** Passkeys' slice of the route table (http/routes.ts lists it with the others); docs/passkeys.md. */
export const webauthnRoutes: readonly Route[] = [
  // Each options request stores a challenge: budgeted like sign-in attempts.
  { method: "POST", path: "/webauthn/options/register", session: "none", handler: registerOptions, limits: ["signin-ip"] },
  { method: "POST", path: "/webauthn/options/signin", session: "none", handler: signInOptions, limits: ["signin-ip"] },
  { method: "POST", path: "/webauthn/signup", session: "optional", support: "refused", handler: passkeySignUp, limits: ["signup-ip"] },
  { method: "POST", path: "/webauthn/signin", session: "optional", support: "refused", handler: passkeySignIn, limits: ["signin-ip"] },
  { method: "GET", path: "/webauthn/email/exists", session: "none", handler: passkeyEmailExistsHandler, limits: ["email-exists-ip"] },
  { method: "POST", path: "/user/webauthn/reset/token", session: "none", handler: recoveryToken, limits: ["mail-ip"] }, // + reset-cooldown, mail-hourly per address
  { method: "POST", path: "/user/webauthn/reset", session: "none", handler: recoverAccount, limits: ["invalid-token-ip", "token-ip"] },
  { method: "GET", path: "/webauthn/credential/list", session: "required+db", handler: listCredentialsHandler },
  { method: "POST", path: "/webauthn/credential", session: "required+db", support: "refused", fresh: true, handler: addCredentialHandler },
  { method: "POST", path: "/webauthn/credential/remove", session: "required+db", support: "refused", handler: removeCredentialHandler },
];
