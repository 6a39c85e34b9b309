import type { Room } from "../kernel/room.js";
import { CDI_PREFIX, createCdiMount } from "./mount.js";
import { accountLinkingRoutes } from "./account-linking.js";
import { emailPasswordRoutes } from "./email-password.js";
import { rolesMetadataRoutes } from "./roles-metadata.js";
import { sessionRoutes } from "./session-routes.js";
import { thirdPartyRoutes } from "./third-party.js";
import { userRoutes } from "./users.js";
import { cdiSettings } from "./settings.js";

/**
 * A drop-in SuperTokens core (docs/supertokens-core.md): the Core Driver Interface the backend SDKs
 * (supertokens-node) speak, under /cdi on the API's listener, over authsvc's own store.
 */
export const cdiRoom: Room = {
  id: "cdi",
  settings: [cdiSettings],
  mount: createCdiMount([...sessionRoutes, ...emailPasswordRoutes, ...userRoutes, ...rolesMetadataRoutes, ...thirdPartyRoutes, ...accountLinkingRoutes]),
  mountPath: CDI_PREFIX,
  // Its recipes over authsvc's own password accounts and provider identities, once its API key switches it on.
  needs: (config) => (config.cdiApiKey ? ["password", "providerIdentities"] : []),
};
