import { createCdiMount } from "./mount.js";
import { accountLinkingRoutes } from "./account-linking.js";
import { emailPasswordRoutes } from "./email-password.js";
import { rolesMetadataRoutes } from "./roles-metadata.js";
import { sessionRoutes } from "./session-routes.js";
import { thirdPartyRoutes } from "./third-party.js";
import { totpRoutes } from "./totp.js";
import { userRoutes } from "./users.js";

/** The Core Driver Interface's handlers, all under one mount; imported on the first request under /cdi (room.ts). */
export const cdiMount = createCdiMount([...sessionRoutes, ...emailPasswordRoutes, ...userRoutes, ...rolesMetadataRoutes, ...thirdPartyRoutes, ...accountLinkingRoutes, ...totpRoutes]);
