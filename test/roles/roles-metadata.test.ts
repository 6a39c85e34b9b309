import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { backends } from "../helpers/backends.js";
import { createTestApp, type TestApp } from "../helpers/test-app.js";
import { jwtPayload, refresh, readTokens, signUp, type Tokens } from "../helpers/session-client.js";
import { admin, KEY } from "../http/admin/admin-client.js";
import { listEvents } from "../../src/store/events.js";
import { linkUsers } from "../../src/core/linking-admin.js";

/** The claims of a fresh access token after a refresh (the roles room recomputes them there). */
async function refreshed(t: TestApp, tokens: Tokens): Promise<{ tokens: Tokens; claims: Record<string, any> }> {
  const res = await refresh(t.url, tokens);
  expect(res.status).toBe(200);
  const next = readTokens(res, tokens.mode, undefined, tokens);
  return { tokens: next, claims: jwtPayload(next.access) };
}

describe.each(backends)("roles and permissions in access tokens ($name)", (backend) => {
  let t: TestApp;
  let id = "";
  let tokens: Tokens;
  beforeEach(async () => {
    t = await createTestApp({ backend, config: { adminApiKey: KEY } });
    const up = await signUp(t.url, "ada@example.com", "header");
    id = (up.json.user as { id: string }).id;
    tokens = up.tokens;
  });
  afterEach(async () => { await t.close(); });

  it("carries st-role and st-perm in the SDKs' shape, updated at the next refresh after each change", async () => {
    const first = jwtPayload(tokens.access);
    expect(first["st-role"]).toEqual({ v: [], t: expect.any(Number) });
    expect(first["st-perm"]).toEqual({ v: [], t: expect.any(Number) });

    expect(await admin(t, "PUT", "/roles/editor", { permissions: ["posts:write", "posts:read"] })).toMatchObject({ status: 201, body: { role: "editor", permissions: ["posts:read", "posts:write"], created: true } });
    expect(await admin(t, "PUT", "/roles/viewer", { permissions: ["posts:read"] })).toMatchObject({ status: 201 });
    expect(await admin(t, "PUT", `/users/${id}/roles/editor`)).toMatchObject({ status: 200, body: { userId: id, roles: ["editor"], changed: true } });
    expect(await admin(t, "PUT", `/users/${id}/roles/editor`)).toMatchObject({ status: 200, body: { changed: false } });
    expect(await admin(t, "PUT", `/users/${id}/roles/viewer`)).toMatchObject({ status: 200, body: { roles: ["editor", "viewer"] } });
    // The token in hand is unchanged until it is refreshed.
    expect(jwtPayload(tokens.access)["st-role"].v).toEqual([]);
    t.clock.advance(1000);
    let r = await refreshed(t, tokens);
    expect(r.claims["st-role"]).toEqual({ v: ["editor", "viewer"], t: t.clock.now() });
    expect(r.claims["st-perm"]).toEqual({ v: ["posts:read", "posts:write"], t: t.clock.now() });

    // A permission taken from a role, a role taken from the user, a role deleted: each at the next refresh.
    expect(await admin(t, "DELETE", "/roles/editor/permissions/posts:write")).toMatchObject({ status: 200, body: { role: "editor", permissions: ["posts:read"] } });
    r = await refreshed(t, r.tokens);
    expect(r.claims["st-perm"].v).toEqual(["posts:read"]);
    expect(await admin(t, "DELETE", `/users/${id}/roles/viewer`)).toMatchObject({ status: 200, body: { roles: ["editor"], changed: true } });
    expect(await admin(t, "POST", "/roles/editor/permissions", { permissions: ["posts:publish"] })).toMatchObject({ status: 200, body: { permissions: ["posts:publish", "posts:read"], created: false } });
    r = await refreshed(t, r.tokens);
    expect(r.claims["st-role"].v).toEqual(["editor"]);
    expect(r.claims["st-perm"].v).toEqual(["posts:publish", "posts:read"]);
    expect(await admin(t, "GET", "/roles/editor/users")).toMatchObject({ status: 200, body: { users: [id] } });
    expect(await admin(t, "GET", `/users/${id}/roles`)).toMatchObject({ status: 200, body: { userId: id, roles: ["editor"], permissions: ["posts:publish", "posts:read"] } });
    expect(await admin(t, "DELETE", "/roles/editor")).toMatchObject({ status: 200, body: { deleted: "editor" } });
    r = await refreshed(t, r.tokens);
    expect(r.claims["st-role"].v).toEqual([]);
    expect(r.claims["st-perm"].v).toEqual([]);
    expect((await admin(t, "GET", "/roles")).body).toEqual({ roles: [{ role: "viewer", permissions: ["posts:read"], organization: false }] });

    const types = (await listEvents(t.app.store.db)).map((e) => e.type).filter((x) => x.startsWith("role.") || x === "user.roles_changed");
    expect(types).toEqual(["role.created", "role.created", "user.roles_changed", "user.roles_changed", "role.permissions_changed", "user.roles_changed", "role.permissions_changed", "role.deleted"]);
  });

  it("refuses unknown users and roles (404) and bad names (400), changing nothing", async () => {
    expect((await admin(t, "PUT", `/users/${id}/roles/ghost`)).status).toBe(404);
    expect((await admin(t, "PUT", "/users/nobody/roles/ghost")).status).toBe(404);
    expect((await admin(t, "DELETE", "/roles/ghost")).status).toBe(404);
    expect((await admin(t, "DELETE", "/roles/ghost/permissions/x")).status).toBe(404);
    expect((await admin(t, "GET", "/roles/ghost/users")).status).toBe(404);
    expect((await admin(t, "GET", "/users/nobody/roles")).status).toBe(404);
    for (const bad of [{}, { permissions: "x" }, { permissions: [1] }, { permissions: ["has space"] }]) {
      expect((await admin(t, "PUT", "/roles/r1", bad)).status).toBe(400);
    }
    expect((await admin(t, "PUT", "/roles/%20bad", { permissions: [] })).status).toBe(400);
    expect((await admin(t, "PUT", "/roles/r1", { permissions: Array.from({ length: 501 }, (_, i) => `p${i}`) })).status).toBe(400);
    expect((await admin(t, "GET", "/roles")).body).toEqual({ roles: [] });
  });

  it("counts a role given to either of two linked login methods for the person", async () => {
    const other = await signUp(t.url, "ada@example.org", "header");
    const otherId = (other.json.user as { id: string }).id;
    await admin(t, "PUT", "/roles/admin", { permissions: ["all"] });
    await admin(t, "PUT", `/users/${otherId}/roles/admin`);
    expect((await linkUsers(t.app.ctx, id, otherId, "test")).status).toBe("OK");
    const r = await refreshed(t, tokens);
    expect(r.claims["st-role"].v).toEqual(["admin"]);
    expect((await admin(t, "GET", `/users/${otherId}/roles`)).body).toEqual({ userId: id, roles: ["admin"], permissions: ["all"] });
  });
});

describe.each(backends)("user metadata ($name)", (backend) => {
  let t: TestApp;
  let id = "";
  let tokens: Tokens;
  beforeEach(async () => {
    t = await createTestApp({ backend, config: { adminApiKey: KEY, metadataMaxBytes: 128, metadataClaim: "app" } });
    const up = await signUp(t.url, "ada@example.com", "header");
    id = (up.json.user as { id: string }).id;
    tokens = up.tokens;
  });
  afterEach(async () => { await t.close(); });

  it("merges shallowly, deletes keys set to null, refuses an update past the limit (413, nothing changed) and copies it into the token", async () => {
    expect(await admin(t, "GET", `/users/${id}/metadata`)).toMatchObject({ status: 200, body: { userId: id, metadata: {} } });
    expect("app" in jwtPayload(tokens.access)).toBe(false);
    expect(await admin(t, "PUT", `/users/${id}/metadata`, { plan: "pro", prefs: { theme: "dark" } })).toMatchObject({ status: 200, body: { metadata: { plan: "pro", prefs: { theme: "dark" } } } });
    expect(await admin(t, "PUT", `/users/${id}/metadata`, { prefs: { lang: "fr" }, seats: 3 })).toMatchObject({ status: 200, body: { metadata: { plan: "pro", prefs: { lang: "fr" }, seats: 3 } } });
    expect(await admin(t, "PUT", `/users/${id}/metadata`, { plan: null })).toMatchObject({ status: 200, body: { metadata: { prefs: { lang: "fr" }, seats: 3 } } });
    const big = await admin(t, "PUT", `/users/${id}/metadata`, { notes: "x".repeat(200) });
    expect(big.status).toBe(413);
    expect(big.body.message).toMatch(/limit is 128/);
    expect((await admin(t, "GET", `/users/${id}/metadata`)).body.metadata).toEqual({ prefs: { lang: "fr" }, seats: 3 });

    const r = await refreshed(t, tokens);
    expect(r.claims.app).toEqual({ prefs: { lang: "fr" }, seats: 3 });

    // A number JSON cannot hold (it would be stored as null, which means "delete") is refused, at any depth, changing nothing.
    for (const bad of ["[1]", "\"x\"", "{\"__proto__\":{\"a\":1}}", "{\"seats\":1e999999}", "{\"prefs\":{\"n\":[1,-1e999999]}}"]) {
      const res = await fetch(`${t.url}/admin/v1/users/${id}/metadata`, { method: "PUT", headers: { authorization: `Bearer ${KEY}`, "content-type": "application/json" }, body: bad });
      expect(res.status, bad).toBe(400);
    }
    expect((await admin(t, "GET", `/users/${id}/metadata`)).body.metadata).toEqual({ prefs: { lang: "fr" }, seats: 3 });
    expect((await admin(t, "PUT", "/users/nobody/metadata", { a: 1 })).status).toBe(404);
    expect(await admin(t, "DELETE", `/users/${id}/metadata`)).toMatchObject({ status: 200, body: { metadata: {} } });
    expect("app" in (await refreshed(t, r.tokens)).claims).toBe(false);
    const events = (await listEvents(t.app.store.db, { type: "user.metadata_changed" })).map((e) => JSON.parse(e.data!));
    expect(events.map((d) => d.keys ?? "cleared")).toEqual([["plan", "prefs"], ["prefs", "seats"], ["plan"], "cleared"]);
  });

  it("two concurrent updates of different keys both land", async () => {
    await Promise.all([admin(t, "PUT", `/users/${id}/metadata`, { a: 1 }), admin(t, "PUT", `/users/${id}/metadata`, { b: 2 })]);
    expect((await admin(t, "GET", `/users/${id}/metadata`)).body.metadata).toEqual({ a: 1, b: 2 });
  });
});
