import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { backends } from "../../helpers/backends.js";
import { createTestApp, type TestApp } from "../../helpers/test-app.js";
import { jwtPayload, refresh, signUp, type Tokens } from "../../helpers/session-client.js";
import { admin, KEY } from "./admin-client.js";

describe.each(backends)("admin API sessions ($name)", (backend) => {
  let t: TestApp;
  let id = "";
  let a: Tokens, b: Tokens;
  beforeEach(async () => {
    t = await createTestApp({ backend, config: { adminApiKey: KEY } });
    const first = await signUp(t.url, "ada@example.com", "header");
    id = (first.json.user as { id: string }).id;
    a = first.tokens;
    b = (await signUp(t.url, "ada@example.com", "header", "/auth/signin")).tokens;
  });
  afterEach(async () => { await t.close(); });

  it("lists a user's live sessions (no tokens), revokes one (its refresh fails) and then all", async () => {
    const list = await admin(t, "GET", `/users/${id}/sessions`);
    expect(list.status).toBe(200);
    const handles = list.body.sessions.map((s: { handle: string }) => s.handle);
    expect(new Set(handles)).toEqual(new Set([jwtPayload(a.access).sessionHandle, jwtPayload(b.access).sessionHandle]));
    expect(Object.keys(list.body.sessions[0]).sort()).toEqual(["createdAt", "expiresAt", "handle", "lastRefreshedAt", "supportBy", "userId"]);
    // The person's own sessions: no admin acts in them (a support session names its admin).
    expect(list.body.sessions.map((s: { supportBy: unknown }) => s.supportBy)).toEqual([null, null]);

    const one = jwtPayload(a.access).sessionHandle;
    expect(await admin(t, "DELETE", `/sessions/${one}`)).toMatchObject({ status: 200, body: { handle: one, userId: id, revoked: true } });
    expect((await refresh(t.url, a)).status).toBe(401);
    expect((await refresh(t.url, b)).status).toBe(200);
    expect(await admin(t, "DELETE", `/sessions/${one}`)).toMatchObject({ status: 200, body: { revoked: false } });
    expect((await admin(t, "DELETE", "/sessions/unknown")).status).toBe(404);

    expect(await admin(t, "DELETE", `/users/${id}/sessions`)).toMatchObject({ status: 200, body: { revoked: 1 } });
    expect((await refresh(t.url, b)).status).toBe(401);
    expect((await admin(t, "GET", `/users/${id}/sessions`)).body).toEqual({ sessions: [] });
    expect((await admin(t, "GET", "/users/nobody/sessions")).status).toBe(404);
    expect((await admin(t, "DELETE", "/users/nobody/sessions")).status).toBe(404);
  });
});
