import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp, type App } from "../../src/app.js";
import { testConfig } from "../../src/config.js";
import { decryptPrivateJwk, encryptPrivateJwk, rotateSigningKey } from "../../src/core/signing-keys.js";
import { listEvents } from "../../src/store/events.js";
import { listSigningKeys as listRows } from "../../src/store/signing-keys.js";
import { createManualClock } from "../../src/util/clock.js";
import { backends } from "../helpers/backends.js";

const SECRET = "a-test-secret-that-is-long-enough-32+";

describe.each(backends)("signing keys on $name", (backend) => {
  let db: { url: string; drop(): Promise<void> };
  const apps: App[] = [];
  const clocks = new Map<App, ReturnType<typeof createManualClock>>();
  beforeAll(async () => { db = await backend.create(); });
  afterAll(async () => {
    for (const a of apps) await a.close();
    await db.drop();
  });
  const open = async (secret?: string) => {
    const clock = createManualClock(Date.now());
    const app = await createApp(testConfig({ database: db.url, secret }), { clock });
    apps.push(app);
    clocks.set(app, clock);
    await app.migrate();
    return app;
  };

  it("two instances starting at once end with one current key, and sign with the same kid", async () => {
    const a = await open(SECRET);
    const b = await open(SECRET);
    await Promise.all([a.start(), b.start()]);
    const rows = await listRows(a.store.db);
    expect(rows.filter((r) => r.retired_at === null)).toHaveLength(1);
    const [ka, kb] = await Promise.all([a.ctx.keys.signingKey(), b.ctx.keys.signingKey()]);
    expect(ka.kid).toBe(kb.kid);
    expect(ka.kid).toMatch(/^d-\d+$/);
  });

  it("stores private keys encrypted under the secret; the JWKS holds public parts only", async () => {
    const [app] = apps;
    for (const r of await listRows(app.store.db)) {
      expect(r.private_jwk.startsWith("enc:v1:")).toBe(true);
      expect(r.private_jwk).not.toContain('"d"');
      expect(Object.keys(JSON.parse(r.public_jwk)).sort()).toEqual(["e", "kty", "n"]);
    }
    const wrong = await open("another-secret-that-is-also-long-enough");
    await expect(wrong.ctx.keys.load()).rejects.toThrow(/cannot be decrypted/);
  });

  it("rotation makes a new current key and keeps the old one published", async () => {
    const [a, b] = apps;
    const before = (await a.ctx.keys.signingKey()).kid;
    const r = await rotateSigningKey(a.ctx, "cli");
    expect(r.retired).toBe(1);
    // The audit log says who rotated, in the rotation's own transaction.
    const [ev] = await listEvents(a.store.db, { type: "signing_key.rotated" });
    expect(JSON.parse(ev.data!)).toEqual({ kid: r.kid, retired: 1, source: "cli" });
    expect((await a.ctx.keys.signingKey()).kid).toBe(r.kid);
    // The other instance looks for an unknown kid at most once a minute (a flood of made-up kids
    // must not become a flood of queries): it learns about the new key a minute after its last look.
    expect(await b.ctx.keys.verificationKey(r.kid)).toBeUndefined();
    clocks.get(b)!.advance(60_000);
    expect(await b.ctx.keys.verificationKey(r.kid)).toBeDefined();
    const kids = (await a.ctx.keys.jwks()).keys.map((k) => k.kid);
    expect(kids).toEqual(expect.arrayContaining([before, r.kid]));
  });
});

describe("private key encryption", () => {
  it("round-trips, binds the ciphertext to its kid, and stays plain without a secret", () => {
    const enc = encryptPrivateJwk('{"d":"x"}', SECRET, "d-1");
    expect(enc).toMatch(/^enc:v1:/);
    expect(decryptPrivateJwk(enc, SECRET, "d-1")).toBe('{"d":"x"}');
    expect(() => decryptPrivateJwk(enc, SECRET, "d-2")).toThrow(/cannot be decrypted/);
    expect(() => decryptPrivateJwk(enc, undefined, "d-1")).toThrow(/no server secret/);
    expect(encryptPrivateJwk('{"d":"x"}', undefined, "d-1")).toBe('{"d":"x"}');
  });
});
