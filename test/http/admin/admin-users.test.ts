import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { backends } from "../../helpers/backends.js";
import { createTestApp, type TestApp } from "../../helpers/test-app.js";
import { signUpWithPassword } from "../../../src/methods/email-password/accounts.js";
import { insertUser } from "../../../src/store/users.js";
import { insertIdentity } from "../../../src/methods/third-party/store.js";
import { listOutboxMessages } from "../../../src/store/outbox.js";
import { credentials, postJson, refresh, signUp } from "../../helpers/session-client.js";
import { admin, KEY, SECRET_SHAPES } from "./admin-client.js";

const PW = "correct horse battery staple";

describe.each(backends)("admin API users ($name)", (backend) => {
  let t: TestApp;
  beforeEach(async () => { t = await createTestApp({ backend, config: { adminApiKey: KEY } }); });
  afterEach(async () => { await t.close(); });

  const create = async (email: string) => {
    const r = await signUpWithPassword(t.app.ctx, { email, password: PW });
    if (r.status !== "OK") throw new Error("sign-up failed");
    return r.user.id;
  };
  const signIn = (email: string, password = PW) => postJson(`${t.url}/auth/signin`, credentials(email, password), { rid: "emailpassword" });

  it("links two users by hand (the first keeps its id; the other's sessions get it as sub) and unlinks a login method again", async () => {
    const ada = await create("ada@example.com");
    const ada2 = await create("ada.work@example.com");
    const session = await signIn("ada.work@example.com");
    expect(await admin(t, "POST", `/users/${ada}/links`, { userId: ada2 })).toMatchObject({ status: 200, body: { userId: ada, changed: true } });
    const got = await admin(t, "GET", `/users/${ada2}`);
    expect(got.body.user).toMatchObject({ id: ada, isPrimaryUser: true, emails: ["ada@example.com", "ada.work@example.com"] });
    expect(got.body.user.loginMethods.map((m: { recipeUserId: string }) => m.recipeUserId)).toEqual([ada, ada2]);
    const refreshed = await refresh(t.url, { mode: "cookie", access: "", refresh: session.headers.getSetCookie().find((c) => c.startsWith("sRefreshToken="))!.split(";")[0].split("=")[1] });
    const access = refreshed.headers.getSetCookie().find((c) => c.startsWith("sAccessToken="))!.split(";")[0].split("=")[1];
    expect(JSON.parse(Buffer.from(access.split(".")[1], "base64url").toString())).toMatchObject({ sub: ada, rsub: ada2 });
    expect((await admin(t, "GET", "/users")).body.users.map((u: { id: string }) => u.id)).toEqual([ada]);
    // Sessions speak of the person: ada's list holds the session her work address started.
    expect((await admin(t, "GET", `/users/${ada}/sessions`)).body.sessions.map((x: { userId: string }) => x.userId)).toEqual([ada2]);

    expect(await admin(t, "DELETE", `/users/${ada2}/links`)).toMatchObject({ status: 200, body: { userId: ada2, remainingUserId: ada } });
    expect((await admin(t, "GET", `/users/${ada2}`)).body.user).toMatchObject({ id: ada2, isPrimaryUser: false });
    expect(await admin(t, "DELETE", `/users/${ada2}/links`)).toMatchObject({ status: 409, body: { message: "This login method is not linked to another" } });
    expect(await admin(t, "POST", `/users/${ada}/links`, { userId: "no-such-user" })).toMatchObject({ status: 404, body: { message: "No such user: no-such-user" } });
  });

  it("gets a user by id (404 for an unknown one) and by email, listing every user that address belongs to", async () => {
    const id = await create("ada@example.com");
    const got = await admin(t, "GET", `/users/${id}`);
    expect(got).toMatchObject({ status: 200, body: { user: { id, email: "ada@example.com", verified: false, loginMethods: [{ recipeId: "emailpassword" }] } } });
    expect(JSON.stringify(got.body)).not.toMatch(SECRET_SHAPES);
    expect(await admin(t, "GET", "/users/no-such-user")).toMatchObject({ status: 404, body: { message: "No such user" } });
    // A separate third-party user with the same address: both are returned, never one picked.
    const now = t.clock.now();
    await insertUser(t.app.store.db, { id: "tp-user", email: "ada@example.com", time_joined: now + 1, updated_at: now + 1 });
    await insertIdentity(t.app.store.db, { provider_id: "github", provider_user_id: "42", user_id: "tp-user", email: "ada@example.com", created_at: now + 1, updated_at: now + 1 });
    const byEmail = await admin(t, "GET", "/users?email=" + encodeURIComponent(" ADA@Example.com"));
    expect(byEmail.status).toBe(200);
    expect(byEmail.body.users.map((u: any) => [u.id, u.loginMethods[0].recipeId])).toEqual([[id, "emailpassword"], ["tp-user", "thirdparty"]]);
    expect(byEmail.body.users[1].thirdParty).toEqual([{ id: "github", userId: "42" }]);
    expect((await admin(t, "GET", "/users?email=nobody@example.com")).body).toEqual({ users: [] });
    // The third-party user has no password to set or reset: the refusal says how they sign in.
    expect(await admin(t, "PUT", "/users/tp-user/password", { password: "a brand new horse staple" })).toMatchObject({ status: 409, body: { message: "This user signs in with a third-party provider and has no password" } });
    expect(await admin(t, "POST", "/users/tp-user/reset-link", {})).toMatchObject({ status: 409, body: { message: "This user signs in with a third-party provider and has no password to reset" } });
    // A user of sign-in codes is told apart from a provider's.
    const coded = await admin(t, "POST", "/users", { email: "codes@example.com", passwordless: true });
    expect(coded.status).toBe(201);
    expect(await admin(t, "PUT", `/users/${coded.body.user.id}/password`, { password: "a brand new horse staple" })).toMatchObject({ status: 409, body: { message: "This user signs in with sign-in codes by mail and has no password" } });
    expect((await admin(t, "GET", "/users?email=")).status).toBe(400);
    expect((await admin(t, "GET", "/users?email=ada")).body).toEqual({ message: "email must be a valid address" });
  });

  it("lists users oldest first with an opaque cursor, searches by email, and refuses bad paging input", async () => {
    const emails = ["a1@example.com", "b2@example.org", "c3@example.com", "d4@example.com", "e5@example.org"];
    for (const e of emails) { await create(e); t.clock.advance(1000); }
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const r = await admin(t, "GET", `/users?limit=2${cursor ? `&cursor=${cursor}` : ""}`);
      expect(r.status).toBe(200);
      seen.push(...r.body.users.map((u: any) => u.email));
      cursor = r.body.nextCursor;
      pages++;
    } while (cursor);
    expect(seen).toEqual(emails);
    expect(pages).toBe(3);
    const search = await admin(t, "GET", "/users?search=example.ORG");
    expect(search.body).toMatchObject({ nextCursor: null });
    expect(search.body.users.map((u: any) => u.email)).toEqual(["b2@example.org", "e5@example.org"]);
    // LIKE wildcards are matched literally.
    expect((await admin(t, "GET", "/users?search=%25")).body.users).toEqual([]);
    for (const q of ["limit=0", "limit=501", "limit=ten", "cursor=garbage", "limit=1&limit=2"]) {
      const r = await admin(t, "GET", `/users?${q}`);
      expect(r.status, q).toBe(400);
      expect(typeof r.body.message).toBe("string");
    }
  });

  it("creates a user with the sign-up rules: 201, 409 for a taken address, 400 for a weak password or bad input", async () => {
    const r = await admin(t, "POST", "/users", { email: "New@Example.com", password: PW, verified: true });
    expect(r).toMatchObject({ status: 201, body: { user: { email: "new@example.com", verified: true } } });
    expect(JSON.stringify(r.body)).not.toMatch(SECRET_SHAPES);
    expect((await signIn("new@example.com")).status).toBe(200);
    expect(await admin(t, "POST", "/users", { email: "new@example.com", password: PW })).toMatchObject({ status: 409, body: { formFields: [{ id: "email" }] } });
    expect(await admin(t, "POST", "/users", { email: "weak@example.com", password: "password" })).toMatchObject({ status: 400, body: { formFields: [{ id: "password" }] } });
    expect(await admin(t, "POST", "/users", { email: "not-an-email", password: PW })).toMatchObject({ status: 400, body: { formFields: [{ id: "email", error: "Email is invalid" }] } });
    const broken = await fetch(`${t.url}/admin/v1/users`, { method: "POST", headers: { authorization: `Bearer ${KEY}`, "content-type": "application/json" }, body: "{not json" });
    expect(broken.status).toBe(400);
    for (const bad of [{ email: "x@example.com" }, { email: 1, password: PW }, { email: "x@example.com", password: PW, verified: "yes" }]) {
      expect((await admin(t, "POST", "/users", bad)).status).toBe(400);
    }
    expect(await t.app.store.db.selectFrom("users").select("email").execute()).toEqual([{ email: "new@example.com" }]);
  });

  it("deletes a user (then 404), and marks the email verified and unverified", async () => {
    const id = await create("ada@example.com");
    expect(await admin(t, "PUT", `/users/${id}/verified`, { verified: true })).toMatchObject({ status: 200, body: { id, verified: true, changed: true } });
    expect((await admin(t, "GET", `/users/${id}`)).body.user.verified).toBe(true);
    expect(await admin(t, "PUT", `/users/${id}/verified`, { verified: false })).toMatchObject({ status: 200, body: { verified: false, changed: true } });
    expect(await admin(t, "PUT", `/users/${id}/verified`, { verified: false })).toMatchObject({ body: { changed: false } });
    expect((await admin(t, "GET", `/users/${id}`)).body.user.verified).toBe(false);
    expect((await admin(t, "PUT", `/users/${id}/verified`, {})).status).toBe(400);
    expect((await admin(t, "PUT", "/users/nobody/verified", { verified: true })).status).toBe(404);
    expect(await admin(t, "DELETE", `/users/${id}`)).toMatchObject({ status: 200, body: { deleted: id } });
    expect((await admin(t, "DELETE", `/users/${id}`)).status).toBe(404);
    expect((await signIn("ada@example.com")).status).toBe(200); // 200 with WRONG_CREDENTIALS_ERROR
    expect(await (await signIn("ada@example.com")).json()).toEqual({ status: "WRONG_CREDENTIALS_ERROR" });
  });

  it("sets a password: the new one signs in, the old one no longer does, and live sessions end", async () => {
    const { json, tokens } = await signUp(t.url, "ada@example.com", "header");
    const id = (json.user as { id: string }).id;
    expect((await admin(t, "PUT", `/users/${id}/password`, { password: "password" })).status).toBe(400);
    const r = await admin(t, "PUT", `/users/${id}/password`, { password: "a brand new horse staple" });
    expect(r).toMatchObject({ status: 200, body: { id, revokedSessions: 1 } });
    expect((await refresh(t.url, tokens)).status).toBe(401);
    expect(await (await signIn("ada@example.com")).json()).toEqual({ status: "WRONG_CREDENTIALS_ERROR" });
    expect(await (await signIn("ada@example.com", "a brand new horse staple")).json()).toMatchObject({ status: "OK" });
    expect((await admin(t, "PUT", "/users/nobody/password", { password: "a brand new horse staple" })).status).toBe(404);
  });

  it("issues a reset link the user can use; mails it only when asked", async () => {
    const id = await create("ada@example.com");
    const r = await admin(t, "POST", `/users/${id}/reset-link`, {});
    expect(r).toMatchObject({ status: 200, body: { mailed: false } });
    expect(r.body.link).toMatch(/^http:\/\/localhost:3000\/auth\/reset-password\?token=[\w-]{43}&tenantId=public$/);
    expect(await listOutboxMessages(t.app.store.db, { kind: "password_reset" })).toEqual([]);
    const token = new URL(r.body.link).searchParams.get("token");
    const reset = await postJson(`${t.url}/auth/user/password/reset`, { method: "token", token, formFields: [{ id: "password", value: "reset horse battery staple" }] });
    expect(await reset.json()).toEqual({ status: "OK" });
    expect(await (await signIn("ada@example.com", "reset horse battery staple")).json()).toMatchObject({ status: "OK" });

    const mailed = await admin(t, "POST", `/users/${id}/reset-link`, { mail: true });
    expect(mailed).toMatchObject({ status: 200, body: { mailed: true } });
    const outbox = await listOutboxMessages(t.app.store.db, { kind: "password_reset" });
    expect(outbox).toHaveLength(1);
    expect(outbox[0].text_body).toContain(mailed.body.link);
    expect((await admin(t, "POST", "/users/nobody/reset-link", {})).status).toBe(404);
  });
});
