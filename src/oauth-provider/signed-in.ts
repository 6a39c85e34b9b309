import type { IncomingMessage } from "node:http";
import type { CoreContext } from "../core/context.js";
import { LINK_FRESHNESS_MS } from "../core/login-policy.js";
import { assertMfaClaimSatisfied, authenticationMethods, readMfaState } from "../core/mfa.js";
import { getSessionState } from "../core/sessions.js";
import { verifyAccessTokenCached } from "../core/verified-tokens.js";
import { findSessionLastProof } from "../store/people.js";
import * as repo from "./store.js";

/**
 * Who is behind an OAuth request in the browser: the person's authsvc session (the sAccessToken
 * cookie of the hosted pages, or of an app on this origin), never the provider's own cookie alone.
 * How recently it proved itself decides whether the provider may sign the person in with it.
 */
export interface SignedIn {
  /** The person (`sub`): the provider's account id. */
  personId: string;
  /** The login the session signed in with (`rsub`). */
  userId: string;
  sessionHandle: string;
}

/** The request's authsvc session, if it is live and complete (second factor included). */
export async function authsvcSession(ctx: CoreContext, req: IncomingMessage): Promise<SignedIn | undefined> {
  const tokens = (req.headers.cookie ?? "").split(";").map((p) => p.trim()).filter((p) => p.startsWith("sAccessToken=")).map((p) => p.slice("sAccessToken=".length)).filter(Boolean);
  if (tokens.length !== 1) return undefined;
  try {
    const payload = await verifyAccessTokenCached(ctx, decodeURIComponent(tokens[0]));
    assertMfaClaimSatisfied(payload);
    const state = await getSessionState(ctx, payload.sessionHandle);
    return state.active && state.userId === payload.rsub ? { personId: payload.sub, userId: payload.rsub, sessionHandle: payload.sessionHandle } : undefined;
  } catch {
    return undefined;
  }
}

/** When the session last proved who is behind it (its sign-in, or a factor since: epoch ms) and how (RFC 8176 `amr`). */
export async function sessionProof(ctx: CoreContext, s: SignedIn): Promise<{ at: number; amr: string[] } | undefined> {
  const at = await findSessionLastProof(ctx.store.db, s.sessionHandle);
  if (at === undefined) return undefined;
  const { claim } = await readMfaState(ctx.store.db, ctx, s.personId, s.sessionHandle);
  return { at, amr: authenticationMethods(ctx.factors, Object.keys(claim.c)) };
}

/**
 * Whether a sign-in made at `proofAt` may sign the person in to the provider for this interaction,
 * as adding a way in asks (LINK_FRESHNESS_MS): a sign-in made since the request began always may
 * (that is what the hosted page just did); an earlier one only if it is at most 5 minutes old and,
 * when the client asked, within its `max_age`; never after `prompt=login`, which asks for a new one.
 */
export async function freshEnoughToSignIn(ctx: CoreContext, uid: string, proofAt: number, p: { maxAge?: unknown; promptLogin: boolean }): Promise<boolean> {
  const started = (await repo.findRecord(ctx.store.db, "Interaction", uid))?.created_at;
  if (started !== undefined && proofAt >= Number(started)) return true;
  if (p.promptLogin) return false;
  const maxAge = typeof p.maxAge === "number" || (typeof p.maxAge === "string" && /^\d+$/.test(p.maxAge)) ? Number(p.maxAge) * 1000 : Infinity;
  return ctx.clock.now() - proofAt <= Math.min(LINK_FRESHNESS_MS, maxAge);
}
