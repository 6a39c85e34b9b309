import type { EventHandler } from "h3";
import type { BucketName, WindowBucket } from "../core/limits.js";
import type { HttpDeps } from "./deps.js";

export type Method = "GET" | "POST" | "PUT";

/**
 * One row of the API's route table: method, path (under the API base path unless `root`), what
 * session it needs, handler factory. API routes also answer under the tenant prefix /<base>/public/... .
 * `session` (documentation; the handler enforces it): "required" = access token via
 * requireSession, "required+db" = also checks the session row, "optional" = optionalSession,
 * "refresh" = refresh token, "none"/absent = public. A leaf type: rooms declare their slices
 * with it and the composition root (src/rooms.ts, app.ts) assembles the table.
 */
export interface Route {
  method: Method;
  path: string;
  session?: "none" | "optional" | "required" | "required+db" | "refresh";
  handler: (deps: HttpDeps) => EventHandler;
  /** Mounted at the server root instead of under the API base path. */
  root?: boolean;
  /**
   * Per-client-IP rate-limit buckets (limit-guard.ts). Per-address buckets (failed sign-ins, mail
   * per address) need the body and are applied by the handler: noted in comments here.
   */
  limits?: readonly WindowBucket[];
  /**
   * What the request does for someone not signed in yet, when a person could be asked to prove they
   * are not a bot first (the rooms' route guards, Room.routeGuard: the protection room's challenge).
   * `perAddress`: the buckets its handler counts per submitted address (the canonical address of
   * the body's `email` form field or field), whose budget a guard may read besides the route's.
   */
  challenge?: { action: ChallengeAction; perAddress?: readonly BucketName[] };
}

/** The requests a bot check can guard: creating an account, signing in, asking for a sign-in code, asking for a reset mail. */
export type ChallengeAction = "sign-up" | "sign-in" | "passwordless" | "reset";
