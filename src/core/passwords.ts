import { createHash } from "node:crypto";
import { passwordHasher } from "./hash-pool.js";
import { bcryptCost, importedHashFormat, MAX_BCRYPT_COST } from "./hash-formats/index.js";
import { createRandomBytes } from "../util/random.js";
import type { CoreContext } from "./context.js";

/**
 * Password policy (PROTOCOL.md §6: length, size, Unicode, not the address) and hashing.
 *
 * Hash scheme, stored with the hash:
 *   "bcrypt-sha384:" + bcrypt(base64(SHA-384(NFKC(password))))   — ours
 *   anything core/hash-formats/ recognises (bcrypt, Argon2, scrypt, Firebase scrypt, PBKDF2,
 *   phpass…)                                                      — imported from elsewhere
 * The SHA-384 pre-hash makes every byte count (bcrypt alone ignores bytes past 72) and base64
 * keeps NUL bytes out of bcrypt's input. NFKC on set and on verify means the same password typed
 * with composed or decomposed accents works. bcrypt runs on a thread pool of its own
 * (core/hash-pool.ts, sized by --hash-threads), never on the event loop nor on libuv's pool.
 */
export const MAX_PASSWORD_BYTES = 1024;
const PREFIX = "bcrypt-sha384:";

export interface PolicyOptions {
  minLength: number;
  /** Canonical email of the account; the password may not be it or its local part. */
  email?: string;
}

/** Returns a sentence naming the broken rule, or null when the password is acceptable. */
export function checkPasswordPolicy(password: string, opts: PolicyOptions): string | null {
  if (!password.isWellFormed()) return "Password contains invalid Unicode (an unpaired surrogate).";
  const length = [...password].length;
  if (length < opts.minLength) return `Password must be at least ${opts.minLength} characters long.`;
  if (Buffer.byteLength(password, "utf8") > MAX_PASSWORD_BYTES) return `Password must be at most ${MAX_PASSWORD_BYTES} bytes long.`;
  const lower = password.normalize("NFKC").toLowerCase();
  // Common and breached passwords are the rooms' checks (checkNewPassword: the protection room's
  // shipped list and breach lookup), which every path that sets a password runs after this.
  if (opts.email) {
    const local = opts.email.slice(0, opts.email.lastIndexOf("@"));
    if (lower === opts.email || lower.includes(opts.email) || (local.length > 0 && lower === local)) {
      return "Password must not be your email address or part of it.";
    }
  }
  return null;
}

/**
 * A room's check of every new password (Room.passwordCheck), run after the kernel's policy by
 * checkNewPassword on every path that sets one: sign-up, reset, the account page's change, the
 * operator's set. Returns a sentence for the person, or null. It may be slow (a lookup elsewhere)
 * but must answer: a check that cannot reach what it asks decides without it.
 */
export interface PasswordCheck {
  check(password: string): Promise<string | null>;
  /**
   * Told of a password that just signed a login user in (its check passed), before the session
   * starts: what it records then (a breached one) its claims can read. Never refuses the sign-in.
   */
  atSignIn?(ctx: CoreContext, recipeUserId: string, password: string): Promise<void>;
}

/** Tells the rooms' checks of a password that just signed in (PasswordCheck.atSignIn), in their order. */
export async function notePasswordSignIn(ctx: CoreContext, recipeUserId: string, password: string): Promise<void> {
  for (const c of ctx.passwordChecks) await c.atSignIn?.(ctx, recipeUserId, password);
}

/** The kernel's policy, then the rooms' checks (ctx.passwordChecks): the first sentence, or null. */
export async function checkNewPassword(checks: readonly PasswordCheck[], password: string, opts: PolicyOptions): Promise<string | null> {
  const why = checkPasswordPolicy(password, opts);
  if (why) return why;
  for (const c of checks) {
    const refused = await c.check(password);
    if (refused) return refused;
  }
  return null;
}

function prehash(password: string): string {
  return createHash("sha384").update(password.normalize("NFKC"), "utf8").digest("base64");
}

/** Hashes a password with the current scheme at the given bcrypt cost. */
export async function hashPassword(password: string, cost: number): Promise<string> {
  return PREFIX + (await passwordHasher().hash(prehash(password), cost));
}

/** The bcrypt cost recorded in a stored hash (ours, plain or Django's bcrypt), or undefined for any other format. */
export function hashCost(stored: string): number | undefined {
  return bcryptCost(stored.startsWith(PREFIX) ? stored.slice(PREFIX.length) : stored);
}

export interface VerifyResult {
  ok: boolean;
  /** The stored hash should be replaced (other scheme or cost); only meaningful when ok. */
  needsRehash: boolean;
  /**
   * The highest bcrypt cost this check computed, which is what its time follows: never below the
   * current cost for a well-formed hash (see padding below); 0 for a hash that was not computed.
   */
  workCost: number;
}

/**
 * Verifies a password against a stored hash of any supported scheme. Never throws for bad hashes.
 * This is the one place sign-in, re-authentication and the dashboard check a password: ours is
 * checked here, every format imported from elsewhere through core/hash-formats/.
 *
 * An imported hash (a $2b$04$ from elsewhere, a fast PBKDF2, an Argon2…) or ours from before the
 * cost was raised would answer in another time than every other account and than an unknown
 * address (verified against a dummy at the current cost), so sign-in timing would tell imported
 * accounts apart. Such a check is padded: a verification at the current cost runs alongside it,
 * on another pool thread, and the answer waits for both, so it takes at least the time a
 * current-cost check takes. Hashes are not re-hashed at import (100,000 rows at cost 11 would take
 * hours); the first successful sign-in replaces the hash with ours at the current cost (needsRehash).
 */
export async function verifyPassword(password: string, stored: string, currentCost: number): Promise<VerifyResult> {
  const own = stored.startsWith(PREFIX);
  const format = own ? undefined : importedHashFormat(stored);
  // Parameters are checked again before computing: a row written around the import's checks gets no work.
  if (own ? checkOwnHash(stored) !== null : !format || format.check(stored) !== null) return { ok: false, needsRehash: false, workCost: 0 };
  const cost = hashCost(stored);
  const pad = own && cost === currentCost ? undefined : padCheck(currentCost);
  const workCost = Math.max(cost ?? 0, pad ? currentCost : 0);
  try {
    const [ok] = await Promise.all([own ? passwordHasher().verify(prehash(password), stored.slice(PREFIX.length)) : format!.verify(password, stored), pad]);
    // Ours at the current cost needs nothing; anything else is replaced by ours after a success.
    return { ok, needsRehash: ok && (!own || cost !== currentCost), workCost };
  } catch {
    await pad?.catch(() => undefined);
    return { ok: false, needsRehash: false, workCost };
  }
}

// One hash per cost, made once (without hashing: createDummyHash): the padding only needs bcrypt's time, not its answer.
const padHashes = new Map<number, Promise<string>>();

async function padCheck(cost: number): Promise<void> {
  let hash = padHashes.get(cost);
  if (!hash) padHashes.set(cost, hash = createDummyHash(cost));
  await passwordHasher().verify("padding", (await hash).slice(PREFIX.length));
}

/**
 * A hash at the current cost that no password matches. Sign-in verifies against it when the account
 * does not exist, so "unknown email" costs the same time as "wrong password". bcrypt's time depends
 * on the cost alone, not on the salt or digest, so it is a well-formed bcrypt hash with a random
 * salt and a random digest (a password would match it by a 2^-184 chance, and the account does not
 * exist anyway): made without hashing, so a server starts no hashing thread before its first
 * sign-in (docs/performance.md, "Memory").
 */
export async function createDummyHash(cost: number): Promise<string> {
  return `${PREFIX}$2b$${String(cost).padStart(2, "0")}$${bcryptBase64(createRandomBytes(16))}${bcryptBase64(createRandomBytes(23))}`;
}

const BASE64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const BCRYPT64 = "./ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
/** bcrypt's own base64 (another alphabet, no padding): 16 bytes → the 22-character salt, 23 → the 31-character digest. */
function bcryptBase64(bytes: Buffer): string {
  return bytes.toString("base64").replace(/=+$/, "").replace(/[A-Za-z0-9+/]/g, (c) => BCRYPT64[BASE64.indexOf(c)]);
}

const OWN_HASH = /^bcrypt-sha384:\$2[aby]\$(\d\d)\$[./A-Za-z0-9]{53}$/;

function checkOwnHash(hash: string): string | null {
  const m = OWN_HASH.exec(hash);
  if (!m) return "passwordHash starts with bcrypt-sha384: but is not one of ours (bcrypt-sha384:$2b$…, 74 characters)";
  const cost = Number(m[1]);
  return cost < 4 || cost > MAX_BCRYPT_COST ? `passwordHash has bcrypt cost ${cost}; accepted: 4 to ${MAX_BCRYPT_COST}` : null;
}

/**
 * Checks a hash brought in from elsewhere (import) without computing anything: ours, or one of the
 * formats core/hash-formats/ recognises, with its parameters inside their bounds (no Argon2 asking
 * for gigabytes, no scrypt or PBKDF2 that would hold a thread for seconds). Returns why it is
 * refused, or null. An imported hash is verified as it is and replaced by ours at the first sign-in.
 */
export function checkStoredHashFormat(hash: string): string | null {
  if (hash.startsWith(PREFIX)) return checkOwnHash(hash);
  const format = importedHashFormat(hash);
  if (!format) return "passwordHash is in no format authsvc reads: bcrypt ($2a$, $2b$, $2y$), WordPress ($wp$2y$…, $P$), Django (bcrypt_sha256$, pbkdf2_sha256$, pbkdf2_sha1$, argon2$), Argon2 ($argon2id$…), scrypt ($scrypt$…, better-auth's salt:hash), Firebase scrypt ($fbscrypt$…), PBKDF2 ($pbkdf2-sha256$…), ASP.NET Identity (AQAAAA…), phpass ($P$, $H$), LDAP ({SSHA}…), Auth0's custom hash ($auth0$…) or ours (bcrypt-sha384:…)";
  const why = format.check(hash);
  return why && `passwordHash: ${why}`;
}
