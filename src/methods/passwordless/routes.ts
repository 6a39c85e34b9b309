import type { Route } from "../../http/route.js";
import { consumeCodeHandler } from "./handlers/consume-code.js";
import { createCodeHandler } from "./handlers/create-code.js";
import { passwordlessEmailExists } from "./handlers/email-exists.js";
import { resendCodeHandler } from "./handlers/resend-code.js";

/** Passwordless sign-in's slice of the route table (http/routes.ts lists it with the others). */
export const passwordlessRoutes: readonly Route[] = [
  { method: "POST", path: "/signinup/code", session: "optional", support: "refused", handler: createCodeHandler, limits: ["mail-ip"], challenge: { action: "passwordless", perAddress: ["mail-hourly"] } },
  { method: "POST", path: "/signinup/code/resend", session: "optional", support: "refused", handler: resendCodeHandler, limits: ["mail-ip"] }, // + mail-hourly per address
  { method: "POST", path: "/signinup/code/consume", session: "optional", support: "refused", handler: consumeCodeHandler, limits: ["token-ip"] }, // + 5 wrong codes per device
  { method: "GET", path: "/passwordless/email/exists", session: "none", handler: passwordlessEmailExists, limits: ["email-exists-ip"] },
];
