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

/**
 * A way POST /admin/v1/users creates a user, declared by a sign-in method (Room.adminUserCreator):
 * the first creator whose `when` holds for the body creates the user; the one without `when` is
 * the default. Its part of the operation's description (the body fields it reads, a phrase of the
 * summary) is declared beside its other admin paths (OpenApiArea.adminUserCreation).
 */
export interface AdminUserCreator {
  /** Whether the body asks for this way (one of the body fields it declares, e.g. a flag set to true); a malformed field is a 400. */
  when?(body: Record<string, unknown>): boolean;
  /** Creates the user: the status and the answer (201 {user}, or 400 / 409 saying why not). */
  create(deps: HttpDeps, body: Record<string, unknown>): Promise<{ status: number; answer: unknown }>;
}
