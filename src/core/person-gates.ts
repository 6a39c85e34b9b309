import type { Kysely } from "kysely";
import type { DB } from "../store/schema.js";
import type { CoreContext } from "./context.js";
import { AuthError } from "./errors.js";

/**
 * A person gate (Room.personGate): a room that may shut a person out (a ban) says so here, and the
 * kernel asks every gate at the two places a person gets in: when a session is opened (every
 * sign-in method's, core/sessions.ts openSession), and on every request that carries an access
 * token (http/session-guard.ts). The kernel never names the room; ending what is already open is
 * the room's event, through endWaysIn.
 */
export interface PersonGate {
  /** Whether the person may not sign in now: read in the sign-in's transaction, so it is never stale. */
  refusesSignIn(db: Kysely<DB>, ctx: CoreContext, personId: string, now: number): Promise<boolean>;
  /**
   * Whether a live access token of the person's is refused now. Called on every authenticated
   * request, so it answers from memory where it can (a gate may be up to a second late on another
   * instance, never on the one that made the change).
   */
  refusesSession(ctx: CoreContext, personId: string, now: number): boolean | Promise<boolean>;
}

/** The error a refused sign-in throws: answered as the method's generic refusal (createSessionResponse names its status). */
export const signInRefused = () => new AuthError("SIGN_IN_REFUSED", "Cannot sign in due to security reasons. Please contact support.");

/** Throws signInRefused when a gate refuses the person (in the sign-in's transaction). */
export async function assertMayStartSession(db: Kysely<DB>, ctx: CoreContext, personId: string): Promise<void> {
  const now = ctx.clock.now();
  for (const g of ctx.personGates) if (await g.refusesSignIn(db, ctx, personId, now)) throw signInRefused();
}

/**
 * Whether a gate refuses the person's sessions now. The authenticated path: no promise unless a
 * gate has to look something up (its memory is older than it trusts).
 */
export function sessionRefused(ctx: CoreContext, personId: string): boolean | Promise<boolean> {
  const now = ctx.clock.now();
  for (let i = 0; i < ctx.personGates.length; i++) {
    const r = ctx.personGates[i].refusesSession(ctx, personId, now);
    if (r === true) return true;
    if (r !== false) return r.then((yes) => yes || sessionRefusedFrom(ctx, personId, now, i + 1));
  }
  return false;
}

async function sessionRefusedFrom(ctx: CoreContext, personId: string, now: number, from: number): Promise<boolean> {
  for (const g of ctx.personGates.slice(from)) if (await g.refusesSession(ctx, personId, now)) return true;
  return false;
}
