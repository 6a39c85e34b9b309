import { ADMIN_PREFIX } from "../http/admin/route.js";
import { adminOpenApi as a } from "../http/openapi/admin.js";
import { json } from "../http/openapi/components.js";
import type { OpenApiArea } from "../http/openapi/types.js";

const answer = json("the user's metadata now", a.object({ userId: { type: "string" }, metadata: { type: "object" } }));
const op = (id: string, summary: string, rest: Record<string, unknown>) => ({ ...a.op(id, summary, rest), tags: ["metadata"] });

/** The admin API's user metadata (src/metadata/admin.ts). */
export const metadataAdminArea: OpenApiArea = {
  tag: { name: "metadata", description: "Admin API: a JSON object per user for the app (shallow merge; null deletes a key; size-limited)" },
  prefix: () => ADMIN_PREFIX,
  paths: {
    "/users/{id}/metadata": {
      get: op("adminGetMetadata", "The user's metadata ({} when none)", { parameters: [a.userId], responses: { 200: answer, ...a.errorsFor(400) } }),
      put: op("adminUpdateMetadata", "Merge into the user's metadata: each top-level key replaces the stored one, null deletes it; 413 when the result would pass metadataMaxBytes (nothing changes)", {
        parameters: [a.userId], requestBody: a.body({ type: "object" }, true), responses: { 200: answer, ...a.bodyErrors() },
      }),
      delete: op("adminClearMetadata", "Delete all of the user's metadata", { parameters: [a.userId], responses: { 200: answer, ...a.errorsFor(400) } }),
    },
  },
};
