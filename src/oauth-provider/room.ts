import type { Room } from "../kernel/room.js";
import { hostedPageRoutes } from "../http/pages/route.js";
import { oauthAdminRoutes } from "./admin.js";
import { oauthCommands } from "./commands.js";
import { connectedAppsAdminRoutes, connectedAppsPersonPage, connectedAppsRoutes } from "./connected-apps.js";
import { connectedAppsPage } from "./page.js";
import connectedAppsCss from "./pages/connected-apps.css?raw";
import connectedAppsJs from "./pages/connected-apps.js?raw";
import { createOauthMount, DISCOVERY_PATHS } from "./mount.js";
import { OAUTH_PREFIX } from "./provider.js";
import { connectedAppsArea, oauthAdminArea } from "./openapi.js";
import { oauthSettings } from "./settings.js";
import { oauthGrantWays } from "./ways-in.js";
import { oauthWords } from "./words/index.js";

/**
 * The OAuth 2.1 / OpenID Connect provider (docs/oauth-provider.md): oidc-provider mounted under
 * /oauth with the discovery documents at the root, its records in this room's tables, clients and
 * resources registered by the operator.
 */
export const oauthProviderRoom: Room = {
  id: "oauth-provider",
  // Its webhooks: a person allowed an app (consent), or the grant was revoked.
  events: {
    "oauth.grant_given": { type: "oauth.grant_created" },
    "oauth.grant_revoked": { type: "oauth.grant_revoked" },
  },
  settings: [oauthSettings],
  words: oauthWords,
  mount: createOauthMount,
  // Only these paths reach the provider: the API's hot path passes it by.
  mountPath: [OAUTH_PREFIX, ...DISCOVERY_PATHS],
  routes: connectedAppsRoutes,
  adminRoutes: [...oauthAdminRoutes, ...connectedAppsAdminRoutes],
  openapi: connectedAppsArea,
  adminOpenapi: oauthAdminArea,
  // "Connected apps": the grants the signed-in person gave, each revocable (linked from My account).
  pages: (c) => (c.oauthProvider ? hostedPageRoutes(c, { "/connected-apps": connectedAppsPage }) : []),
  assets: { "connected-apps.js": connectedAppsJs },
  accountPage: { links: (c, w) => (c.oauthProvider ? [{ place: "apps", path: `${c.websiteBasePath}/connected-apps`, label: w.t("oauth.apps.title") }] : []) },
  styles: connectedAppsCss,
  // The interaction page sends a person without a session to the hosted sign-in, which comes back here.
  returnPaths: (config) => (config.oauthProvider ? ["/oauth/interaction/*"] : []),
  // The grants people gave apps are a way into their accounts: every security event ends them
  // (a password change or reset, sign-out everywhere, a deletion…; core/ways-in.ts).
  waysIn: [oauthGrantWays],
  personPage: connectedAppsPersonPage,
  commands: [oauthCommands],
};
