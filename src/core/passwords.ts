import { createHash } from "node:crypto";
import { createRequire } from "node:module";
import { hashPool } from "./hash-pool.js";
import { createSecretToken } from "../util/random.js";

/**
 * Password policy (PROTOCOL.md §6) and hashing.
 *
 * Hash scheme, stored with the hash:
 *   "bcrypt-sha384:" + bcrypt(base64(SHA-384(NFKC(password))))   — ours
 *   "$2a$…", "$2b$…", "$2y$…"                                     — plain bcrypt, imported from elsewhere
 * The SHA-384 pre-hash makes every byte count (bcrypt alone ignores bytes past 72) and base64
 * keeps NUL bytes out of bcrypt's input. NFKC on set and on verify means the same password typed
 * with composed or decomposed accents works. bcrypt runs on a thread pool of its own
 * (core/hash-pool.ts, sized by --hash-threads), never on the event loop nor on libuv's pool.
 */
export const MAX_PASSWORD_BYTES = 1024;
const PREFIX = "bcrypt-sha384:";
/** Costs above this are refused without computing (a hostile imported hash would take hours). */
const MAX_ACCEPTED_COST = 16;

let common: Set<string> | undefined;
function commonPasswords(): Set<string> {
  if (!common) {
    // zxcvbn-ts's ranked list of ~49k passwords seen in breaches, bundled: works offline.
    const list: string[] = loadZxcvbnCommon().dictionary["passwords-common"];
    common = new Set(list.filter((p) => [...p].length >= 8));
  }
  return common;
}

/**
 * Loaded on first use, not at start (~30 ms, ~6 MB). Both builds have a `require`: the npm bundle
 * defines one (scripts/build.mjs banner), and in the single executable's CommonJS bundle esbuild
 * resolves this literal require to the copy of the package inside the executable. Only the
 * TypeScript source, as the tests run it, may have none.
 */
function loadZxcvbnCommon(): { dictionary: Record<string, string[]> } {
  return typeof require === "function" ? require("@zxcvbn-ts/language-common") : createRequire(import.meta.url)("@zxcvbn-ts/language-common");
}

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
  if (commonPasswords().has(lower)) return "This password is too common. Please choose a less guessable one.";
  if (opts.email) {
    const local = opts.email.slice(0, opts.email.lastIndexOf("@"));
    if (lower === opts.email || lower.includes(opts.email) || (local.length > 0 && lower === local)) {
      return "Password must not be your email address or part of it.";
    }
  }
  return null;
}

function prehash(password: string): string {
  return createHash("sha384").update(password.normalize("NFKC"), "utf8").digest("base64");
}

/** Hashes a password with the current scheme at the given bcrypt cost. */
export async function hashPassword(password: string, cost: number): Promise<string> {
  return PREFIX + (await hashPool().hash(prehash(password), cost));
}

/** The bcrypt cost recorded in a stored hash, or undefined if the format is unknown. */
export function hashCost(stored: string): number | undefined {
  const m = /^(?:bcrypt-sha384:)?\$2[aby]\$(\d\d)\$/.exec(stored);
  return m ? Number(m[1]) : undefined;
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
 *
 * A hash below the current cost (a $2b$04$ imported from elsewhere, or ours from before the cost
 * was raised) would answer in a fraction of the time of every other account and of an unknown
 * address (verified against a dummy at the current cost), so sign-in timing would tell imported
 * accounts apart. Such a check is padded: a verification at the current cost runs alongside it,
 * on another pool thread, and the answer waits for both, so it takes the time a current-cost
 * check takes. Hashes are not re-hashed at import (100,000 rows at cost 11 would take hours); the
 * first successful sign-in replaces the hash with ours at the current cost (needsRehash).
 */
export async function verifyPassword(password: string, stored: string, currentCost: number): Promise<VerifyResult> {
  const cost = hashCost(stored);
  if (cost === undefined || cost > MAX_ACCEPTED_COST) return { ok: false, needsRehash: false, workCost: 0 };
  const pad = cost < currentCost ? padCheck(currentCost) : undefined;
  try {
    const [ok] = await Promise.all([checkHash(password, stored), pad]);
    // Ours at the current cost needs nothing; anything else is replaced by ours after a success.
    const needsRehash = ok && (!stored.startsWith(PREFIX) || cost !== currentCost);
    return { ok, needsRehash, workCost: pad ? currentCost : cost };
  } catch {
    await pad?.catch(() => undefined);
    return { ok: false, needsRehash: false, workCost: pad ? currentCost : cost };
  }
}

async function checkHash(password: string, stored: string): Promise<boolean> {
  if (stored.startsWith(PREFIX)) return hashPool().verify(prehash(password), stored.slice(PREFIX.length));
  // Imported plain bcrypt: verified as bcrypt always was (first 72 bytes), then upgraded.
  return hashPool().verify(password, stored);
}

// One hash per cost, made once: the padding only needs bcrypt's time, not its answer.
const padHashes = new Map<number, Promise<string>>();

async function padCheck(cost: number): Promise<void> {
  const hash = padHashes.get(cost);
  if (hash) { await hashPool().verify("padding", (await hash).slice(PREFIX.length)); return; }
  // The first time, making the hash is itself the current-cost work.
  const made = createDummyHash(cost);
  padHashes.set(cost, made);
  await made.catch((err) => { padHashes.delete(cost); throw err; });
}

/**
 * A hash of a random password at the current cost. Sign-in verifies against it when the account
 * does not exist, so "unknown email" costs the same time as "wrong password".
 */
export async function createDummyHash(cost: number): Promise<string> {
  return hashPassword(createSecretToken(), cost);
}

const STORED_HASH = /^(?:bcrypt-sha384:)?\$2[aby]\$\d\d\$[./A-Za-z0-9]{53}$/;

/**
 * Checks a hash brought in from elsewhere (import) without computing anything: our own scheme or
 * plain bcrypt ($2a$, $2b$, $2y$) at a cost verifyPassword accepts. Returns why it is refused, or
 * null. A plain bcrypt hash is verified as it is and replaced by ours at the first sign-in.
 */
export function checkStoredHashFormat(hash: string): string | null {
  if (!STORED_HASH.test(hash)) return "passwordHash is not a bcrypt hash ($2a$, $2b$ or $2y$, 60 characters) nor one of ours (bcrypt-sha384:…)";
  const cost = hashCost(hash)!;
  if (cost < 4 || cost > MAX_ACCEPTED_COST) return `passwordHash has bcrypt cost ${cost}; accepted: 4 to ${MAX_ACCEPTED_COST}`;
  return null;
}
