import type { Room } from "../http/room.js";
import { oauthAdminRoutes } from "./admin.js";
import { createOauthMount, DISCOVERY_PATHS } from "./mount.js";
import { OAUTH_PREFIX } from "./provider.js";
import { oauthAdminArea } from "./openapi.js";
import { oauthSettings } from "./settings.js";

/**
 * The OAuth 2.1 / OpenID Connect provider (docs/oauth-provider.md): oidc-provider mounted under
 * /oauth with the discovery documents at the root, its records in this room's tables, clients and
 * resources registered by the operator.
 */
export const oauthProviderRoom: Room = {
  id: "oauth-provider",
  settings: [oauthSettings],
  mount: createOauthMount,
  // Only these paths reach the provider: the API's hot path passes it by.
  mountPath: [OAUTH_PREFIX, ...DISCOVERY_PATHS],
  adminRoutes: oauthAdminRoutes,
  adminOpenapi: oauthAdminArea,
  // The interaction page sends a person without a session to the hosted sign-in, which comes back here.
  returnPaths: (config) => (config.oauthProvider ? ["/oauth/interaction/*"] : []),
};
