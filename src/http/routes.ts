import type { EventHandler } from "h3";
import type { HttpDeps } from "./deps.js";
import { healthz, readyz } from "./handlers/health.js";
import { appleCallback } from "./handlers/apple-callback.js";
import { authorisationUrl } from "./handlers/authorisation-url.js";
import { loginMethods } from "./handlers/login-methods.js";
import { signInUpHandler } from "./handlers/sign-in-up.js";
import { passwordReset } from "./handlers/password-reset.js";
import { passwordResetToken } from "./handlers/password-reset-token.js";

export type Method = "GET" | "POST";

/**
 * The one route table: method, path (under the API base path unless `root`), handler factory.
 * API routes also answer under the tenant prefix /<base>/public/... .
 */
export interface Route {
  method: Method;
  path: string;
  handler: (deps: HttpDeps) => EventHandler;
  /** Mounted at the server root instead of under the API base path. */
  root?: boolean;
}

export const routes: readonly Route[] = [
  { method: "GET", path: "/healthz", handler: healthz, root: true },
  { method: "GET", path: "/readyz", handler: readyz, root: true },
  { method: "GET", path: "/authorisationurl", handler: authorisationUrl },
  { method: "POST", path: "/signinup", handler: signInUpHandler },
  { method: "GET", path: "/loginmethods", handler: loginMethods },
  { method: "POST", path: "/callback/apple", handler: appleCallback },
  { method: "POST", path: "/user/password/reset/token", handler: passwordResetToken },
  { method: "POST", path: "/user/password/reset", handler: passwordReset },
];
