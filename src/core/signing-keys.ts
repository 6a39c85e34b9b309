import { createPrivateKey, createPublicKey, type JsonWebKey, type KeyObject } from "node:crypto";
import { exportJWK, generateKeyPair } from "jose";
import type { Config } from "../config/types.js";
import type { Store } from "../store/database.js";
import { isUniqueViolation } from "../store/database.js";
import { insertEvent } from "../store/events.js";
import * as repo from "../store/signing-keys.js";
import type { Clock } from "../util/clock.js";
import type { Logger } from "../util/logger.js";
import { isSealed, openText, sealText } from "../util/sealed-text.js";

/** The public half of a signing key as the JWKS publishes it (never d, p, q...). */
export interface PublicJwk { kty: string; kid: string; n: string; e: string; alg: "RS256"; use: "sig" }

export interface KeyInfo { kid: string; createdAt: number; retiredAt: number | null; state: "current" | "published" | "expired" }

/**
 * In-memory cache of the signing keys as node KeyObjects. A request reads the table only when the
 * cache is older than KEY_RELOAD_INTERVAL_MS or names an unknown kid (each at most once a minute);
 * otherwise signing and verifying touch no database. Each key is built once: a reload keeps the
 * KeyObject of every row whose stored text is unchanged (so the signing thread and the
 * verified-token cache, which hold keys by identity, keep theirs) and drops keys no longer listed.
 */
export interface KeyRing {
  /** (Re)loads the keys, creating the first key if there is none. */
  load(): Promise<void>;
  signingKey(): Promise<{ kid: string; key: KeyObject }>;
  /** The public key for a kid that may still verify tokens, or undefined. */
  verificationKey(kid: string): Promise<KeyObject | undefined>;
  /**
   * The same answer without waiting, when the keys in memory are fresh (read less than a reload
   * interval ago) and hold `kid`; undefined otherwise (the caller then asks verificationKey).
   */
  verificationKeyNow(kid: string): KeyObject | undefined;
  jwks(): Promise<{ keys: PublicJwk[] }>;
  /**
   * Whether `kid` is another server's key moved in (`users import --from supertokens`): its tokens
   * have that server's payload. Answers from the keys in memory (after verificationKey).
   */
  isMovedKey(kid: string): boolean;
  /** How many KeyObjects the ring holds and has ever built, and how often it read the table (tests). */
  counts(): { held: number; built: number; loads: number };
}

type KeyDeps = { config: Readonly<Config>; store: Store; clock: Clock; logger: Logger };

/** Keys are re-read this often, so a rotation by another process or the CLI propagates. */
export const KEY_RELOAD_INTERVAL_MS = 60_000;
/** An unknown kid (a rotation elsewhere, or a made-up token) re-reads the table at most this often. */
const UNKNOWN_KID_RELOAD_MS = 60_000;
const LEEWAY_MS = 60_000;

/**
 * How long a retired key stays published: the last token it signed lives `accessTokenLifetimeMs`
 * (+ clock leeway); another instance may keep signing with it for one reload interval after the
 * retirement, so that is added too.
 */
export function retiredKeyWindowMs(config: Readonly<Config>): number {
  return config.accessTokenLifetimeMs + LEEWAY_MS + KEY_RELOAD_INTERVAL_MS;
}

interface Cache {
  loadedAt: number;
  current: { kid: string; key: KeyObject; stored: string };
  verify: Map<string, { key: KeyObject; jwk: PublicJwk; until: number; stored: string; moved: boolean }>;
}

/** Creates the key ring of one app. Nothing is read until first use (or app.start()). */
export function createKeyRing(deps: KeyDeps): KeyRing {
  let cache: Cache | undefined;
  let loading: Promise<Cache> | undefined;
  let lastMissReload = -Infinity;
  const tally = { built: 0, loads: 0 };

  const reload = (): Promise<Cache> => {
    if (!loading) {
      tally.loads++;
      // Every read of the table counts as the unknown-kid look of its minute.
      lastMissReload = deps.clock.now();
      loading = readKeys(deps, cache, tally).then((c) => { cache = c; return c; }).finally(() => { loading = undefined; });
    }
    return loading;
  };
  const fresh = async (): Promise<Cache> => {
    if (cache && deps.clock.now() - cache.loadedAt < KEY_RELOAD_INTERVAL_MS) return cache;
    return reload();
  };
  return {
    load: async () => { await reload(); },
    signingKey: async () => (await fresh()).current,
    verificationKey: async (kid) => {
      let c = await fresh();
      let hit = c.verify.get(kid);
      // An unknown kid may come from a rotation elsewhere; look again, but at most once a minute so
      // a flood of made-up kids cannot turn into a flood of queries. The price: for up to a minute
      // after a rotation, another instance may answer a token with the new kid 401 (try refresh),
      // and the SDK refreshes, as it does after any 401.
      if (!hit && deps.clock.now() - lastMissReload >= UNKNOWN_KID_RELOAD_MS) {
        c = await reload();
        hit = c.verify.get(kid);
      }
      return hit && hit.until > deps.clock.now() ? hit.key : undefined;
    },
    verificationKeyNow: (kid) => {
      const now = deps.clock.now();
      if (!cache || now - cache.loadedAt >= KEY_RELOAD_INTERVAL_MS) return undefined;
      const hit = cache.verify.get(kid);
      return hit && hit.until > now ? hit.key : undefined;
    },
    jwks: async () => {
      const c = await fresh();
      const now = deps.clock.now();
      return { keys: [...c.verify.values()].filter((v) => v.until > now).map((v) => v.jwk) };
    },
    isMovedKey: (kid) => cache?.verify.get(kid)?.moved === true,
    counts: () => ({ held: cache ? cache.verify.size + 1 : 0, built: tally.built, loads: tally.loads }),
  };
}

async function readKeys(deps: KeyDeps, previous: Cache | undefined, tally: { built: number }): Promise<Cache> {
  const now = deps.clock.now();
  // One query: the list is newest first, so its first unretired row is the current key.
  let rows = await repo.listSigningKeys(deps.store.db);
  if (!rows.some((r) => r.retired_at === null)) {
    await createFirstKey(deps);
    rows = await repo.listSigningKeys(deps.store.db);
  }
  const current = rows.find((r) => r.retired_at === null);
  if (!current) throw new Error("signing key vanished right after it was created");
  const window = retiredKeyWindowMs(deps.config);
  const verify: Cache["verify"] = new Map();
  for (const r of rows) {
    const until = r.retired_at === null ? Infinity : Number(r.retired_at) + window;
    if (until <= now) continue;
    const kept = previous?.verify.get(r.kid);
    const moved = r.moved_from !== null;
    if (kept && kept.stored === r.public_jwk) { verify.set(r.kid, { ...kept, until, moved }); continue; }
    const jwk = JSON.parse(r.public_jwk) as PublicJwk & JsonWebKey;
    tally.built++;
    verify.set(r.kid, { key: createPublicKey({ key: jwk, format: "jwk" }), jwk: { kty: jwk.kty, kid: r.kid, n: jwk.n, e: jwk.e, alg: "RS256", use: "sig" }, until, stored: r.public_jwk, moved });
  }
  const kept = previous?.current;
  if (kept && kept.kid === current.kid && kept.stored === current.private_jwk) return { loadedAt: now, current: kept, verify };
  const privateJwk = JSON.parse(decryptPrivateJwk(current.private_jwk, deps.config.secret, current.kid));
  tally.built++;
  return { loadedAt: now, current: { kid: current.kid, key: createPrivateKey({ key: privateJwk, format: "jwk" }), stored: current.private_jwk }, verify };
}

/**
 * First start: generate outside any transaction (RSA generation is slow), then insert only if no
 * active key exists (atomic, see the store); the caller then reads the current key. Two instances
 * starting at once therefore end with one current key and both sign with it.
 */
async function createFirstKey(deps: KeyDeps): Promise<void> {
  const material = await generateKeyMaterial();
  const row = toRow(material, deps.config, deps.clock.now());
  try {
    if (await repo.insertFirstSigningKey(deps.store, row)) deps.logger.info("signing key created", { kid: row.kid });
  } catch (err) {
    if (!isUniqueViolation(err)) throw err;
  }
}

async function generateKeyMaterial(): Promise<{ pub: string; priv: string }> {
  const { publicKey, privateKey } = await generateKeyPair("RS256", { extractable: true, modulusLength: 2048 });
  const pub = await exportJWK(publicKey);
  return { pub: JSON.stringify({ kty: pub.kty, n: pub.n, e: pub.e }), priv: JSON.stringify(await exportJWK(privateKey)) };
}

/** kid = d-<createdAtMs>, as SuperTokens names its dynamic keys; the kid is the ciphertext's AAD. */
function toRow(m: { pub: string; priv: string }, config: Readonly<Config>, createdAt: number): repo.SigningKeyRow {
  const kid = `d-${createdAt}`;
  return { kid, alg: "RS256", created_at: createdAt, retired_at: null, public_jwk: m.pub, private_jwk: encryptPrivateJwk(m.priv, config.secret, kid), moved_from: null };
}

/**
 * Makes a new current key and retires the previous one (it stays published for its window), with a
 * `signing_key.rotated` event naming who asked (`source`: "cli", "admin:<id>"…) in the same
 * transaction. This process signs with the new key at once; others re-read the table within
 * KEY_RELOAD_INTERVAL_MS (or at once when they meet its kid).
 */
export async function rotateSigningKey(deps: KeyDeps & { keys?: KeyRing }, source = "api"): Promise<{ kid: string; retired: number }> {
  const material = await generateKeyMaterial();
  let createdAt = deps.clock.now();
  for (let attempt = 0; ; attempt++, createdAt++) {
    const row = toRow(material, deps.config, createdAt);
    try {
      const retired = await deps.store.writeTx(async (tx) => {
        await repo.insertSigningKey(tx, row);
        const n = await repo.retireSigningKeysExcept(tx, row.kid, deps.clock.now());
        await insertEvent(tx, { at: deps.clock.now(), type: "signing_key.rotated", userId: null, data: { kid: row.kid, retired: n, source } });
        return n;
      });
      await deps.keys?.load();
      return { kid: row.kid, retired };
    } catch (err) {
      if (!isUniqueViolation(err) || attempt >= 3) throw err;
    }
  }
}

/** Every key with its state, newest first (for `authsvc keys list`). */
export async function listSigningKeys(deps: KeyDeps): Promise<KeyInfo[]> {
  const now = deps.clock.now();
  const window = retiredKeyWindowMs(deps.config);
  return (await repo.listSigningKeys(deps.store.db)).map((r) => ({
    kid: r.kid, createdAt: Number(r.created_at), retiredAt: r.retired_at === null ? null : Number(r.retired_at),
    state: r.retired_at === null ? "current" : Number(r.retired_at) + window > now ? "published" : "expired",
  }));
}

// Private keys at rest: sealed under the server secret (util/sealed-text.ts) with the kid as
// associated data so a ciphertext cannot be moved to another row. Without a secret (development)
// the JWK is stored as plain JSON.
const sealKey = (secret: string) => ({ secret, purpose: "signing-key-encryption v1" });

export function encryptPrivateJwk(json: string, secret: string | undefined, kid: string): string {
  return secret ? sealText(json, sealKey(secret), kid) : json;
}

export function decryptPrivateJwk(stored: string, secret: string | undefined, kid: string): string {
  if (!isSealed(stored)) {
    // With a secret, every key we made is encrypted: a plain one was put there by hand or by a
    // restored file, and would sign tokens with a key anyone who read the table holds.
    if (secret) {
      throw new Error(`signing key ${kid} is stored unencrypted although a server secret (AUTHSVC_SECRET) is configured; `
        + "if it was made in development without a secret, run `authsvc keys rotate` with the secret set to replace it");
    }
    return stored;
  }
  if (!secret) throw new Error(`signing key ${kid} is encrypted but no server secret (AUTHSVC_SECRET) is configured`);
  try {
    return openText(stored, sealKey(secret), kid);
  } catch {
    throw new Error(`signing key ${kid} cannot be decrypted: the server secret differs from the one it was stored with`);
  }
}
