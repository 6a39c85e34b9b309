import type { EventHandler, H3Event } from "h3";
import type { BucketName, WindowBucket } from "../core/limits.js";
import type { Config } from "../config/types.js";
import type { HttpDeps } from "./deps.js";

export type Method = "GET" | "POST" | "PUT";

/** The session a route needs (Route.session). */
export type SessionNeed = "none" | "optional" | "if sent" | "required" | "required+db" | "refresh";

/**
 * One row of the API's route table: method, path (under the API base path unless `root`), who may
 * call it, handler factory. API routes also answer under the tenant prefix /<base>/public/... .
 * Who may call it is declared here and applied by the kernel before the handler runs (http/guard.ts;
 * no handler calls the session guard itself): `session`, `secondFactor`, `fresh` and `role` below.
 * The admin API's routes (admin/route.ts) are all behind the admin key, applied by its mount. A
 * leaf type: rooms declare their slices with it and the composition root assembles the table.
 */
export interface Route {
  method: Method;
  path: string;
  /**
   * The session it needs. "none"/absent: none (public; any session is ignored). "optional": none,
   * but the request may ask to act on its session (`shouldTryLinkingWithSessionUser`: adding a
   * login), which the handler then reads through http/linking-session.ts. "if sent": the session the
   * request carries, checked (a bad or expired one is 401), none when it carries none; the handler
   * reads it with `maybeSessionOf(event)`. "required": a valid access
   * token (401 otherwise), the handler reads it with `sessionOf(event)`. "required+db": the same and
   * the session row checked (revoked → 401 with the tokens cleared). "refresh": the refresh token,
   * read by its one handler. A function: decided by the configuration, once at start.
   */
  session?: SessionNeed | ((config: Readonly<Config>) => SessionNeed);
  /**
   * With a session: "may be incomplete" serves a session whose second factor is still missing
   * (`st-mfa.v` false: the MFA and factor endpoints, sign-out, email verification); by default the
   * second factor must be complete (403 invalid claim, as the SDKs' global validator answers).
   */
  secondFactor?: "complete" | "may be incomplete";
  /**
   * With a session: it must have signed in or completed a factor within the last 5 minutes (the
   * freshness adding a login asks, core/login-policy.ts); otherwise 403 asking to sign in again.
   */
  fresh?: boolean;
  /**
   * With a session, or a linking one ("optional"): "refused" when someone else acts in it (a
   * support session, the token's `act` claim): the route changes credentials, factors, logins or
   * grants, which only the person may. Answered 403 `{"status": "SUPPORT_SESSION_REFUSED"}`.
   */
  support?: "refused";
  /**
   * With a session: a role the caller must hold in what the path names, checked by the room that
   * declares the scope in its route guard (Room.routeGuard; organizations: `scope: "organization"`,
   * the path's `:id`, `permission` the permission the role needs, "member" any role). A route naming
   * a scope no room guards stops the server at start.
   */
  role?: { scope: string; permission: string };
  /**
   * Checks of the request's shape answered before who may call it is (as the SuperTokens SDK does
   * for email verification: a malformed token is 400 with or without a session). Throws to refuse.
   */
  shapeFirst?(event: H3Event, deps: HttpDeps): Promise<void>;
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
