import type { Route } from "../../http/route.js";
import { appleCallback } from "./handlers/apple-callback.js";
import { authorisationUrl } from "./handlers/authorisation-url.js";
import { signInUpHandler } from "./handlers/sign-in-up.js";

/** Third-party sign-in's slice of the route table (http/routes.ts lists it with the others). */
export const thirdPartyRoutes: readonly Route[] = [
  { method: "GET", path: "/authorisationurl", session: "none", handler: authorisationUrl },
  { method: "POST", path: "/signinup", session: "optional", support: "refused", handler: signInUpHandler, limits: ["signinup-ip"] },
  { method: "POST", path: "/callback/apple", session: "none", handler: appleCallback },
];
