import type { EventHandler } from "h3";
import type { HttpDeps } from "../deps.js";

export const ADMIN_PREFIX = "/admin/v1";

/**
 * One row of the admin API's route table (under /admin/v1, every route needs the admin key; see
 * mount.ts). Each handler calls one core function, the same ones the CLI uses. A leaf: the rooms
 * declare their admin routes with it.
 */
export interface AdminRoute {
  method: "GET" | "POST" | "PUT" | "DELETE";
  path: string;
  handler: (deps: HttpDeps) => EventHandler;
}
