import type { CoreContext } from "../../core/context.js";
import { canonicalEmail, isValidEmail } from "../../core/emails.js";
import type { LinkingSession } from "../../core/login-policy.js";
import { verifyPassword } from "../../core/passwords.js";
import { readPersonTop } from "../../core/import-parts.js";
import { findAddressOwners } from "../../core/logins.js";
import { signUpWithPassword, type SignInResult } from "./accounts.js";
import { askOldSystem } from "./old-system.js";
import { SIGN_IN_NOT_ALLOWED } from "./refusals.js";

/**
 * Lazy migration (docs/moving-in.md "Lazy migration"): a password sign-in for an address nobody has
 * here asks the old system, once, whether the password is right; if it is, the person is created
 * here through the sign-up policy (signUpWithPassword: the account-linking decision, one
 * transaction) with authsvc's own bcrypt hash of that password (hashed in the pool), the old id and
 * metadata, and the sign-in is answered as any other. From then on the address exists here and the
 * old system is never asked about it again.
 *
 * Undefined when lazy migration is off, the address is malformed, or someone here has it: the
 * ordinary sign-in decides. Every other failure (the old system says no, does not answer in time,
 * answers something else) is WRONG_CREDENTIALS_ERROR after a bcrypt verification of the dummy hash,
 * like an unknown address without lazy migration: the caller's budgets (per IP by the route, per
 * address by admitSignIn) count it as a failed sign-in, so they also bound what reaches the old
 * system. An unavailable old system is a warning in the log with its reason; no log line here
 * carries the password or the request.
 */
export async function signInThroughOldSystem(ctx: CoreContext, input: { email: string; password: string; session?: LinkingSession }): Promise<SignInResult | undefined> {
  const { lazyMigrationUrl: url, lazyMigrationSecret: secret } = ctx.config;
  if (!url || !secret) return undefined;
  const email = canonicalEmail(input.email);
  if (!isValidEmail(email)) return undefined;
  // One at a time per address in this process, so two quick sign-ins create one person and ask the
  // old system once; another instance racing this one loses on the unique address (see below).
  return serialized(ctx, email, async () => {
    if ((await findAddressOwners(ctx.store.db, ctx.logins, [email])).size > 0) return undefined;
    const readTop = (record: Record<string, unknown>) => readPersonTop(ctx.importParts, record, ctx.config);
    const answer = await askOldSystem({ url, secret, timeoutMs: ctx.config.lazyMigrationTimeoutMs, readTop }, email, input.password);
    if (answer.kind !== "verified") {
      if (answer.kind === "unavailable") ctx.logger.warn("lazy migration: the old system could not check a password; answered as a wrong password", { reason: answer.reason });
      // The same work as an unknown address's wrong password: one bcrypt verification.
      await verifyPassword(input.password, await ctx.dummyHash, ctx.config.bcryptCost);
      return { status: "WRONG_CREDENTIALS_ERROR" } as const;
    }
    const created = await signUpWithPassword(ctx, { email, password: input.password, verified: answer.user.emailVerified, source: "lazy-migration", session: input.session, movedIn: answer.user });
    if (created.status === "OK") {
      ctx.logger.info("lazy migration: moved a user in", { userId: created.user.id });
      return { status: "OK", user: created.user, recipeUserId: created.recipeUserId };
    }
    if (created.status === "SIGN_UP_NOT_ALLOWED") return { status: "SIGN_IN_NOT_ALLOWED", reason: SIGN_IN_NOT_ALLOWED };
    // Taken meanwhile (another instance moved the same person in: the ordinary sign-in now finds
    // them), or the old id belongs to someone else here (that sign-in then fails, and says why here).
    ctx.logger.warn("lazy migration: the old system vouched for a user who could not be created here (address or id taken)", { oldId: answer.user.id });
    return undefined;
  });
}

const queues = new WeakMap<object, Map<string, Promise<unknown>>>();

/** Runs fn after every earlier call for the same key (in this context) has settled. */
async function serialized<T>(ctx: CoreContext, key: string, fn: () => Promise<T>): Promise<T> {
  let queue = queues.get(ctx.store);
  if (!queue) queues.set(ctx.store, (queue = new Map()));
  const before = queue.get(key) ?? Promise.resolve();
  const run = before.then(fn);
  const tail = run.then(() => undefined, () => undefined);
  queue.set(key, tail);
  void tail.then(() => { if (queue.get(key) === tail) queue.delete(key); });
  return run;
}
