import { afterEach, describe, expect, it } from "vitest";
import { createApp } from "../../src/app.js";
import { retiredKeyWindowMs, rotateSigningKey } from "../../src/core/signing-keys.js";
import { countCachedAccessTokens, isCachedAccessToken, MAX_ENTRIES, verifyAccessTokenCached } from "../../src/core/verified-tokens.js";
import { signAccessToken } from "../../src/core/access-tokens.js";
import { countProcessThreadKeys } from "../../src/util/signing-thread.js";
import { backends, sqliteBackend } from "../helpers/backends.js";
import { signUp } from "../helpers/session-client.js";
import { createTestApp, type TestApp } from "../helpers/test-app.js";

const SECRET = "a-test-secret-that-is-long-enough-32+";

/** The same token with another kid in its header (a made-up kid, as a hostile client sends). */
function withKid(token: string, kid: string): string {
  const [, payload, signature] = token.split(".");
  const header = Buffer.from(JSON.stringify({ alg: "RS256", typ: "JWT", kid, version: "5" })).toString("base64url");
  return `${header}.${payload}.${signature}`;
}

// Issue 17 point 5: each key is built once, old keys are dropped, and neither reloads nor made-up
// kids make the key ring, the signing thread or the verified-token cache grow or churn.
describe.each(backends)("signing keys in memory on $name", (backend) => {
  let t: TestApp | undefined;
  afterEach(async () => { await t?.close(); t = undefined; });
  const get = (access: string) => fetch(`${t!.url}/auth/user/email/verify`, { headers: { authorization: `Bearer ${access}` } });

  it("thousands of reloads build no key again and keep the verified-token cache", async () => {
    t = await createTestApp({ backend, start: true, config: { secret: SECRET } });
    const { tokens } = await signUp(t.url, "reload@example.com", "header");
    const ctx = t.app.ctx;
    const first = await verifyAccessTokenCached(ctx, tokens.access);
    const before = ctx.keys.counts();
    const threadKeys = await countProcessThreadKeys();
    expect(before).toMatchObject({ held: 2, built: 2 }); // the current key's public and private halves
    for (let i = 0; i < 3000; i++) await ctx.keys.load();
    const after = ctx.keys.counts();
    expect(after.loads - before.loads).toBe(3000);
    expect(after).toMatchObject({ held: 2, built: 2 });
    // The same frozen payload: answered from the cache, not verified again after the reloads.
    expect(await verifyAccessTokenCached(ctx, tokens.access)).toBe(first);
    expect((await get(tokens.access)).status).toBe(200);
    // The thread is sent no key again either: a sign-in after the reloads signs with the one it has.
    expect((await signUp(t.url, "after-reloads@example.com", "header")).res.status).toBe(200);
    expect(await countProcessThreadKeys()).toBe(threadKeys);
  });

  it("a flood of made-up kids is answered 401 and reads the key table at most once a minute", async () => {
    t = await createTestApp({ backend, start: true, config: { secret: SECRET } });
    const { tokens } = await signUp(t.url, "flood@example.com", "header");
    const ctx = t.app.ctx;
    const before = ctx.keys.counts();
    const statuses = new Set<number>();
    for (let round = 0; round < 20; round++) {
      const batch = Array.from({ length: 8 }, (_, i) => get(withKid(tokens.access, `d-${round}-${i}`)));
      for (const r of await Promise.all(batch)) statuses.add(r.status);
    }
    for (let i = 0; i < 2000; i++) expect(await ctx.keys.verificationKey(`d-made-up-${i}`)).toBeUndefined();
    expect([...statuses]).toEqual([401]);
    expect(ctx.keys.counts().loads - before.loads).toBeLessThanOrEqual(1);
    // A minute later one more look is allowed (the regular reload and the unknown kid share it).
    t.clock.advance(61_000);
    for (let i = 0; i < 2000; i++) await ctx.keys.verificationKey(`d-later-${i}`);
    const after = ctx.keys.counts();
    expect(after.loads - before.loads).toBeLessThanOrEqual(2);
    expect(after).toMatchObject({ held: 2, built: before.built });
    expect((await get(tokens.access)).status).toBe(200);
  });

  it("rotations drop retired keys once their window is over, in the ring and in the signing thread", async () => {
    t = await createTestApp({ backend, start: true, config: { secret: SECRET } });
    const ctx = t.app.ctx;
    for (let i = 0; i < 6; i++) {
      await rotateSigningKey(ctx);
      const { res } = await signUp(t.url, `rotate-${i}@example.com`, "header");
      expect(res.status).toBe(200);
      expect(ctx.keys.counts().held).toBeLessThanOrEqual(3); // current (public + private) + the one just retired
      t.clock.advance(retiredKeyWindowMs(t.config) + 1);
    }
    await ctx.keys.load();
    expect(ctx.keys.counts().held).toBe(2);
    expect(await countProcessThreadKeys()).toBeLessThanOrEqual(4);
  });

  it("refuses an unencrypted private key when a secret is configured, naming the fix; a rotation replaces it", async () => {
    t = await createTestApp({ backend, start: true }); // development: no secret, the key is stored plain
    const row = await t.app.ctx.store.db.selectFrom("signing_keys").select(["kid", "private_jwk"]).executeTakeFirstOrThrow();
    expect(row.private_jwk.startsWith("{")).toBe(true);
    const withSecret = await createApp({ ...t.config, secret: SECRET }, { clock: t.clock });
    try {
      await expect(withSecret.ctx.keys.load()).rejects.toThrow(/stored unencrypted.*AUTHSVC_SECRET.*authsvc keys rotate/);
      const { kid } = await rotateSigningKey(withSecret.ctx);
      expect((await withSecret.ctx.keys.signingKey()).kid).toBe(kid);
    } finally {
      await withSecret.close();
    }
  });
});

// The verified-token cache is memory only (no database in it): one backend is enough.
describe("the verified-token cache's bound", () => {
  let t: TestApp | undefined;
  afterEach(async () => { await t?.close(); t = undefined; });

  it(`holds at most ${MAX_ENTRIES} tokens, the least recently used going first`, { timeout: 120_000 }, async () => {
    t = await createTestApp({ backend: sqliteBackend, start: true, config: { secret: SECRET } });
    const ctx = t.app.ctx;
    const tokens: string[] = [];
    for (let b = 0; b <= MAX_ENTRIES; b += 500) {
      const n = Math.min(500, MAX_ENTRIES + 1 - b);
      const signed = await Promise.all(Array.from({ length: n }, (_, j) =>
        signAccessToken(ctx, { userId: `u${b + j}`, sessionHandle: `s${b + j}`, refreshTokenHash: "h", emailVerified: false })));
      tokens.push(...signed.map((s) => s.token));
    }
    await verifyAccessTokenCached(ctx, tokens[0]);
    await verifyAccessTokenCached(ctx, tokens[1]);
    await verifyAccessTokenCached(ctx, tokens[0]); // used again: now the newest
    for (const token of tokens.slice(2)) await verifyAccessTokenCached(ctx, token);
    expect(countCachedAccessTokens(ctx)).toBe(MAX_ENTRIES);
    expect(isCachedAccessToken(ctx, tokens[1])).toBe(false); // the least recently used
    expect(isCachedAccessToken(ctx, tokens[0])).toBe(true);
    expect(isCachedAccessToken(ctx, tokens[MAX_ENTRIES])).toBe(true);
    // An evicted token is still accepted: verified in full again, and cached again.
    expect((await verifyAccessTokenCached(ctx, tokens[1])).rsub).toBe("u1");
    expect(countCachedAccessTokens(ctx)).toBe(MAX_ENTRIES);
  });
});
