import { defineEventHandler, type EventHandler, type H3Event } from "h3";
import type { Config } from "../config/types.js";
import { AuthError } from "../core/errors.js";
import { ACTOR_CLAIM, supportSessionRefusal } from "../core/sessions.js";
import { FRESH_SIGN_IN_CLAIM, LINK_FRESHNESS_MS } from "../core/login-policy.js";
import { findSessionLastProof } from "../store/people.js";
import type { HttpDeps } from "./deps.js";
import type { Route, SessionNeed } from "./route.js";
import { optionalSession, requireSession, type SessionInfo } from "./session-guard.js";

/**
 * The kernel's guard: applies what a route declares about who may call it (http/route.ts: session,
 * secondFactor, fresh, support; `role` is checked by the room that guards its scope) before its handler runs,
 * and hands the handler the session through `sessionOf`. The only caller of the session guard
 * (session-guard.ts requireSession/optionalSession; test/architecture.test.ts checks it).
 */

const sessions = new WeakMap<H3Event, SessionInfo>();
/** The routes whose request may read its session for linking (Route.session "optional"), by request: the route. */
const linkable = new WeakMap<H3Event, Route>();

/**
 * Route.support "refused": someone else acts in this session (its `act` claim, core/sessions.ts),
 * and the route changes what only the person may (credentials, factors, logins, grants).
 */
export function assertNotActedFor(route: Pick<Route, "support">, s: Pick<SessionInfo, "payload">): void {
  if (route.support !== "refused" || s.payload[ACTOR_CLAIM] === undefined) return;
  throw supportSessionRefusal();
}

/** The session the route's guard let in. A handler of a route that declares no session gets an error: a bug, not a request's fault. */
export function sessionOf(event: H3Event): SessionInfo {
  const s = sessions.get(event);
  if (!s) throw new Error(`no session declared for ${event.method} ${event.path}: declare it in the route table (Route.session)`);
  return s;
}

/** The session a route declaring "if sent" was given, if the request carried one. */
export function maybeSessionOf(event: H3Event): SessionInfo | undefined {
  return sessions.get(event);
}

/** The route's session need for this configuration. */
export function sessionNeedOf(route: Route, config: Readonly<Config>): SessionNeed {
  const need = typeof route.session === "function" ? route.session(config) : route.session;
  return need ?? "none";
}

/**
 * The session a request on a route declaring "optional" asks to act on (adding a login to it): a
 * live one, row checked, second factor not needed yet (checkMayAddWayIn asks for it). 401 without one.
 */
export async function linkingSessionOf(event: H3Event, deps: HttpDeps): Promise<SessionInfo> {
  const route = linkable.get(event);
  if (!route) throw new Error(`${event.method} ${event.path} reads a linking session: declare session "optional" in its route`);
  const s = await requireSession(event, deps, { checkDatabase: true, allowIncompleteMfa: true });
  assertNotActedFor(route, s);
  return s;
}

/** The handler to mount for `route`: `inner` behind the route's shape check, then its declared session, second factor and freshness. */
export function guardSession(deps: HttpDeps, route: Route, inner: EventHandler): EventHandler {
  const guarded = guardWho(deps, route, inner);
  const shapeFirst = route.shapeFirst;
  if (!shapeFirst) return guarded;
  return defineEventHandler(async (event) => {
    await shapeFirst(event, deps);
    return guarded(event);
  });
}

function guardWho(deps: HttpDeps, route: Route, inner: EventHandler): EventHandler {
  const need = sessionNeedOf(route, deps.ctx.config);
  const allowIncompleteMfa = route.secondFactor === "may be incomplete";
  if ((route.fresh || route.role) && need !== "required" && need !== "required+db") {
    throw new Error(`${route.method} ${route.path}: fresh and role need a required session`);
  }
  if (need === "none" || need === "refresh") return inner;
  if (need === "optional") {
    return defineEventHandler((event) => {
      linkable.set(event, route);
      return inner(event);
    });
  }
  if (need === "if sent") {
    return defineEventHandler(async (event) => {
      const s = await optionalSession(event, deps, { allowIncompleteMfa });
      if (s) assertNotActedFor(route, s);
      if (s) sessions.set(event, s);
      return inner(event);
    });
  }
  const checkDatabase = need === "required+db";
  const fresh = route.fresh === true;
  return defineEventHandler(async (event) => {
    const s = await requireSession(event, deps, { checkDatabase, allowIncompleteMfa });
    assertNotActedFor(route, s);
    if (fresh) await assertFresh(deps, s);
    sessions.set(event, s);
    return inner(event);
  });
}

async function assertFresh(deps: HttpDeps, s: SessionInfo): Promise<void> {
  const proof = await findSessionLastProof(deps.ctx.store.db, s.sessionHandle);
  if (proof === undefined) throw new AuthError("UNAUTHORISED", "unauthorised", { clearTokens: true });
  if (deps.ctx.clock.now() - proof > LINK_FRESHNESS_MS) {
    throw new AuthError("INVALID_CLAIM", "invalid claim", {
      claimValidationErrors: [{ id: FRESH_SIGN_IN_CLAIM, reason: { message: "Sign in again: this needs a sign-in from the last 5 minutes", maxAgeInSeconds: LINK_FRESHNESS_MS / 1000 } }],
    });
  }
}
