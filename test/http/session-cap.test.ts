import { afterEach, describe, expect, it } from "vitest";
import { createSession } from "../../src/core/sessions.js";
import { backends } from "../helpers/backends.js";
import { credentials, modeHeaders, postJson, readTokens, refresh, signUp, type Tokens } from "../helpers/session-client.js";
import { createTestApp, type TestApp } from "../helpers/test-app.js";

// Issue 17: a user holds at most `sessionsPerUser` live sessions; a new one revokes the oldest.
describe.each(backends)("sessions per user ($name)", (backend) => {
  let t: TestApp | undefined;
  afterEach(async () => { await t?.close(); t = undefined; });

  const signIn = async (email: string): Promise<Tokens> => {
    const res = await postJson(`${t!.url}/auth/signin`, credentials(email), { rid: "emailpassword", ...modeHeaders("header") });
    expect(res.status).toBe(200);
    const json = await res.json() as Record<string, unknown>;
    expect(json.status).toBe("OK");
    return readTokens(res, "header", json);
  };
  const live = (userId: string) => t!.app.ctx.store.db.selectFrom("sessions").select(["handle", "revoke_reason"])
    .where("user_id", "=", userId).where("revoked_at", "is", null).execute();

  it("a sign-in past the cap revokes the oldest sessions: their refresh fails, the newest keep working", async () => {
    t = await createTestApp({ backend, config: { sessionsPerUser: 3 } });
    const first = await signUp(t.url, "cap@example.com", "header");
    const userId = (first.json.user as { id: string }).id;
    const all = [first.tokens];
    for (let i = 0; i < 4; i++) {
      t.clock.advance(1000);
      all.push(await signIn("cap@example.com"));
    }
    expect(await live(userId)).toHaveLength(3);
    for (const old of all.slice(0, 2)) expect((await refresh(t.url, old)).status).toBe(401);
    for (const recent of all.slice(2)) expect((await refresh(t.url, recent)).status).toBe(200);
    const capped = await t.app.ctx.store.db.selectFrom("sessions").select("handle").where("revoke_reason", "=", "session_cap").execute();
    expect(capped).toHaveLength(2);
    // Another user's sessions are not touched.
    const other = await signUp(t.url, "other@example.com", "header");
    expect((await refresh(t.url, other.tokens)).status).toBe(200);
  });

  it("sign-ins at the same moment never leave more than the cap alive", async () => {
    t = await createTestApp({ backend, config: { sessionsPerUser: 3 } });
    const { json } = await signUp(t.url, "race@example.com", "header");
    const userId = (json.user as { id: string }).id;
    await Promise.all(Array.from({ length: 12 }, () => createSession(t!.app.ctx, userId)));
    expect(await live(userId)).toHaveLength(3);
  });

});
