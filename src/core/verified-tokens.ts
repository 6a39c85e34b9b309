import type { KeyObject } from "node:crypto";
import { verifyAccessToken, type AccessTokenPayload } from "./access-tokens.js";
import type { CoreContext } from "./context.js";
import type { KeyRing } from "./signing-keys.js";

/**
 * A bounded cache of access tokens that passed verifyAccessToken, so a client polling with the same
 * token costs one RSA verification, not one per request. Safe because:
 * - the key is the exact token string: a token that differs in any byte is verified in full;
 * - an entry is used only while now < exp by the injected clock (no leeway: at exp the full check
 *   decides), and the other time claims only become truer as time passes;
 * - an entry remembers the KeyObject that verified it and is used only while the key ring still
 *   hands out that very key for its kid: a retired key past its window, a removed key, or a key
 *   whose stored text changed drops it (the next request verifies in full again). A reload keeps
 *   unchanged keys, so it keeps their entries too.
 * Revocation is not cached here: routes that check the session row still do so on every request.
 */
export const MAX_ENTRIES = 10_000;

interface Entry { payload: AccessTokenPayload; kid: string; key: KeyObject; expMs: number }

const caches = new WeakMap<KeyRing, Map<string, Entry>>();

/** How many verified tokens the cache holds (at most MAX_ENTRIES; docs/performance.md, "Bounded caches"). */
export function countCachedAccessTokens(ctx: CoreContext): number {
  return caches.get(ctx.keys)?.size ?? 0;
}

/** True when `token` is a cached, still-verified access token of ours (no parsing needed). */
export function isCachedAccessToken(ctx: CoreContext, token: string): boolean {
  return caches.get(ctx.keys)?.has(token) === true;
}

/**
 * The authenticated path's fast answer: the payload of a cached token whose entry still holds (before
 * its exp, and the key ring's fresh keys still hand out the very key that verified it), without a
 * promise; undefined when the full path must decide (not cached, keys due for a reload, or expired).
 * Same rules as verifyAccessTokenCached, which the caller falls back to.
 */
export function cachedAccessToken(ctx: CoreContext, token: string): AccessTokenPayload | undefined {
  const cache = caches.get(ctx.keys);
  const hit = cache?.get(token);
  if (!hit || !(ctx.clock.now() < hit.expMs) || ctx.keys.verificationKeyNow(hit.kid) !== hit.key) return undefined;
  // Most recently used goes to the end; the oldest is evicted first.
  cache!.delete(token);
  cache!.set(token, hit);
  return hit.payload;
}

/**
 * verifyAccessToken with the cache in front: same answers, same errors. `header` is the one the
 * caller already parsed (parseAccessTokenHeader), so it is not parsed again. The payload returned is
 * frozen: it is shared by every request that presents the same token.
 */
export async function verifyAccessTokenCached(ctx: CoreContext, token: string, header?: { kid: string }): Promise<AccessTokenPayload> {
  let cache = caches.get(ctx.keys);
  if (!cache) { cache = new Map(); caches.set(ctx.keys, cache); }
  const hit = cache.get(token);
  if (hit) {
    if (ctx.clock.now() < hit.expMs && (await ctx.keys.verificationKey(hit.kid)) === hit.key) {
      // Most recently used goes to the end; the oldest is evicted first.
      cache.delete(token);
      cache.set(token, hit);
      return hit.payload;
    }
    cache.delete(token);
  }
  const payload = await verifyAccessToken(ctx, token, header);
  const kid = header?.kid ?? kidOf(token);
  const key = kid === undefined ? undefined : await ctx.keys.verificationKey(kid);
  Object.freeze(payload["st-ev"]);
  Object.freeze(payload);
  if (key && ctx.clock.now() < payload.exp * 1000) {
    if (cache.size >= MAX_ENTRIES) cache.delete(cache.keys().next().value as string);
    cache.set(token, { payload, kid: kid!, key, expMs: payload.exp * 1000 });
  }
  return payload;
}

/** The kid of a token verifyAccessToken has just accepted (so its header is well formed). */
function kidOf(token: string): string | undefined {
  try {
    const header = JSON.parse(Buffer.from(token.slice(0, token.indexOf(".")), "base64url").toString("utf8"));
    return typeof header.kid === "string" ? header.kid : undefined;
  } catch {
    return undefined;
  }
}
