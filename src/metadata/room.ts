import type { Room } from "../kernel/room.js";
import { metadataAdminRoutes } from "./admin.js";
import { userMetadataCommand } from "./commands.js";
import { metadataImport } from "./import.js";
import { createMetadataClaim } from "./metadata.js";
import { metadataAdminArea } from "./openapi.js";
import { metadataSettings } from "./settings.js";
import { mergeMetadata } from "./merge.js";

/** User metadata: admin routes, the operator's command, its part of an import record and, when configured, its copy in access tokens. */
export const metadataRoom: Room = {
  id: "metadata",
  events: { "user.metadata_changed": { type: "user.metadata_changed" } },
  mergePerson: mergeMetadata,
  importer: metadataImport,
  settings: [metadataSettings],
  adminRoutes: metadataAdminRoutes,
  adminOpenapi: metadataAdminArea,
  claims: (config) => createMetadataClaim(config.metadataClaim),
  commands: [userMetadataCommand],
};
