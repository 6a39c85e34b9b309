import type { H3Event } from "h3";
import { badInput } from "../core/errors.js";
import type { LinkingSession } from "../core/login-policy.js";
import type { HttpDeps } from "./deps.js";
import { linkingSessionOf } from "./guard.js";

/**
 * `shouldTryLinkingWithSessionUser` (FDI 3.1+) on /signup, /signin and /signinup: `true` asks to
 * add the method to the signed-in user and needs a live session (401 without one, checked against
 * the database so a revoked session cannot add a login; the route declares session "optional"); `false` or absent is a first-factor
 * sign-in that ignores any session. Returns the session (its `rsub` and handle; core/login-policy.ts
 * decides whether it may add a login) or undefined.
 */
export async function readLinkingSessionUser(event: H3Event, deps: HttpDeps, body: Record<string, unknown>): Promise<LinkingSession | undefined> {
  const flag = body.shouldTryLinkingWithSessionUser;
  if (flag === undefined || flag === null || flag === false) return undefined;
  if (flag !== true) throw badInput("shouldTryLinkingWithSessionUser must be a boolean");
  const session = await linkingSessionOf(event, deps);
  return { userId: session.userId, sessionHandle: session.sessionHandle };
}
