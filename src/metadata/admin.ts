import { defineEventHandler, setResponseStatus, type H3Event } from "h3";
import { AuthError } from "../core/errors.js";
import { readJsonBody } from "../http/body.js";
import type { AdminRoute } from "../http/admin/route.js";
import { pathParam } from "../http/admin/input.js";
import { clearMetadata, getMetadata, updateMetadata, type MetadataResult } from "./metadata.js";

const noUser = () => new AuthError("NOT_FOUND", "No such user");

/** The answer for an update: 404 no user, 413 past the size limit (nothing changed), else the object. */
function answer(event: H3Event, r: MetadataResult) {
  if (r.status === "UNKNOWN_USER") throw noUser();
  if (r.status === "TOO_LARGE") {
    setResponseStatus(event, 413);
    return { message: `metadata would be ${r.bytes} bytes of JSON; the limit is ${r.limit} (metadataMaxBytes). Nothing was changed.` };
  }
  return { userId: r.userId, metadata: r.metadata };
}

/** The admin API's metadata routes (http/admin/routes.ts lists them with the others). */
export const metadataAdminRoutes: readonly AdminRoute[] = [
  // GET /users/:id/metadata: the object ({} when none).
  {
    method: "GET", path: "/users/:id/metadata", handler: (deps) => defineEventHandler(async (event) => {
      const r = await getMetadata(deps.ctx, pathParam(event, "id"));
      if (!r) throw noUser();
      return r;
    }),
  },
  // PUT /users/:id/metadata {…}: shallow merge; a key set to null is deleted.
  { method: "PUT", path: "/users/:id/metadata", handler: (deps) => defineEventHandler(async (event) => answer(event, await updateMetadata(deps.ctx, pathParam(event, "id"), await readJsonBody(event, deps.ctx.config.bodyLimit), "admin-api"))) },
  // DELETE /users/:id/metadata: removes it all.
  { method: "DELETE", path: "/users/:id/metadata", handler: (deps) => defineEventHandler(async (event) => answer(event, await clearMetadata(deps.ctx, pathParam(event, "id"), "admin-api"))) },
];
