import { afterEach, describe, expect, it } from "vitest";
import { backends } from "../helpers/backends.js";
import { signUp } from "../helpers/session-client.js";
import { createTestApp, type TestApp } from "../helpers/test-app.js";

// The authenticated GET keeps already-verified access tokens in a cache; these tests pin down that
// the cache never accepts what a full verification would refuse.
describe.each(backends)("verified access-token cache on $name", (backend) => {
  let t: TestApp | undefined;
  afterEach(async () => { await t?.close(); t = undefined; });

  const get = (access: string) => fetch(`${t!.url}/auth/user/email/verify`, { headers: { authorization: `Bearer ${access}` } });

  it("stops accepting a cached token once it has expired by the server's clock", async () => {
    t = await createTestApp({ backend, start: true });
    const { tokens } = await signUp(t.url, "cache@example.com", "header");
    expect((await get(tokens.access)).status).toBe(200);
    expect((await get(tokens.access)).status).toBe(200); // served from the cache
    const exp = JSON.parse(Buffer.from(tokens.access.split(".")[1], "base64url").toString()).exp as number;
    t.clock.set(exp * 1000 + 61_000);
    const late = await get(tokens.access);
    expect(late.status).toBe(401);
    expect(await late.json()).toEqual({ message: "try refresh token" });
  });

  it("answers unauthorised for a cached token whose session was revoked", async () => {
    t = await createTestApp({ backend, start: true });
    const { tokens } = await signUp(t.url, "revoked@example.com", "header");
    expect((await get(tokens.access)).status).toBe(200);
    await t.app.ctx.store.db.updateTable("sessions").set({ revoked_at: t.clock.now(), revoke_reason: "test" }).execute();
    const r = await get(tokens.access);
    expect(r.status).toBe(401);
    expect(await r.json()).toEqual({ message: "unauthorised" });
  });

  it("drops a cached token once its signing key is gone from the key table", async () => {
    t = await createTestApp({ backend, start: true });
    const { tokens } = await signUp(t.url, "key@example.com", "header");
    expect((await get(tokens.access)).status).toBe(200);
    // The key is removed (as an operator deleting a compromised key would) and the ring reloaded.
    await t.app.ctx.store.db.deleteFrom("signing_keys").execute();
    await t.app.ctx.keys.load();
    const r = await get(tokens.access);
    expect(r.status).toBe(401);
    expect(await r.json()).toEqual({ message: "try refresh token" });
  });

  it("never serves a token that differs from a cached one in its signature", async () => {
    t = await createTestApp({ backend, start: true });
    const { tokens } = await signUp(t.url, "tamper@example.com", "header");
    expect((await get(tokens.access)).status).toBe(200);
    const last = tokens.access.at(-2) === "A" ? "B" : "A";
    const tampered = tokens.access.slice(0, -2) + last + tokens.access.at(-1);
    expect((await get(tampered)).status).toBe(401);
  });
});
