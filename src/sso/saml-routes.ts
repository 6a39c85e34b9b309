import type { Route } from "../http/route.js";
import { lazy } from "../kernel/lazy.js";

/**
 * The SAML connections' routes: the SP metadata an IdP is configured with, the SP-initiated start,
 * the ACS. Their handlers (saml-handlers.ts) load on the first SAML request: @node-saml/node-saml
 * and its XML libraries are a good part of a process's memory, and most servers have no SAML
 * connection (docs/performance.md, "Memory").
 */
export const samlRoutes: readonly Route[] = [
  { method: "GET", path: "/saml/:id/metadata", handler: lazy(() => import("./saml-handlers.js").then((m) => m.metadata)) },
  { method: "GET", path: "/saml/:id/login", handler: lazy(() => import("./saml-handlers.js").then((m) => m.login)) },
  { method: "POST", path: "/saml/:id/acs", handler: lazy(() => import("./saml-handlers.js").then((m) => m.acs)) },
];
