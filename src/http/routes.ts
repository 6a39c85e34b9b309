import type { Route } from "./route.js";
import { emailVerifyStatus } from "./handlers/email-verify-status.js";
import { emailVerify, emailVerifyShape } from "./handlers/email-verify.js";
import { emailVerifyToken } from "./handlers/email-verify-token.js";
import { healthz, readyz } from "./handlers/health.js";
import { loginMethods } from "./handlers/login-methods.js";
import { jwks, openidConfiguration } from "./handlers/jwks.js";
import { openApi } from "./handlers/openapi.js";
import { mfaInfo } from "./handlers/mfa-info.js";
import { refresh } from "./handlers/refresh.js";
import { signOut } from "./handlers/signout.js";

/**
 * The kernel's routes (health, sessions, email verification, keys), then each sign-in method's
 * slice, declared in its room (src/methods/<method>/routes.ts).
 */
export const kernelRoutes: readonly Route[] = [
  { method: "GET", path: "/healthz", session: "none", handler: healthz, root: true },
  { method: "GET", path: "/readyz", session: "none", handler: readyz, root: true },
  { method: "POST", path: "/session/refresh", session: "refresh", handler: refresh, limits: ["refresh-ip"] },
  { method: "POST", path: "/signout", session: "required", secondFactor: "may be incomplete", handler: signOut },
  { method: "GET", path: "/user/email/verify", session: "required+db", secondFactor: "may be incomplete", handler: emailVerifyStatus },
  { method: "POST", path: "/user/email/verify/token", session: "required+db", secondFactor: "may be incomplete", handler: emailVerifyToken, limits: ["mail-ip"] }, // + verify-cooldown, mail-hourly per address
  // A session checked against its row by default; with emailVerificationRequiresSession off, the one the request carries, if any.
  { method: "POST", path: "/user/email/verify", session: (config) => (config.emailVerificationRequiresSession ? "required+db" : "if sent"), secondFactor: "may be incomplete", shapeFirst: emailVerifyShape, handler: emailVerify, limits: ["invalid-token-ip", "token-ip"] },
  { method: "GET", path: "/jwt/jwks.json", session: "none", handler: jwks },
  { method: "GET", path: "/.well-known/openid-configuration", session: "none", handler: openidConfiguration },
  { method: "GET", path: "/openapi.json", session: "none", handler: openApi },
  { method: "GET", path: "/loginmethods", session: "none", handler: loginMethods },
  { method: "PUT", path: "/mfa/info", session: "required+db", secondFactor: "may be incomplete", handler: mfaInfo },
];
