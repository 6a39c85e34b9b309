import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateCode } from "../../src/methods/totp/secrets.js";
import { listEvents } from "../../src/store/events.js";
import { backends } from "../helpers/backends.js";
import { runCli } from "../helpers/cli.js";
import { jwtPayload, postJson, postWithSession, signUp } from "../helpers/session-client.js";
import { createTestApp, type TestApp } from "../helpers/test-app.js";
import { admin, KEY } from "../http/admin/admin-client.js";

const NEW_PW = "another long and unusual passphrase";

describe.each(backends)("second-factor reset and password reset on $name", (backend) => {
  let t: TestApp;
  beforeAll(async () => { t = await createTestApp({ backend, config: { adminApiKey: KEY } }); });
  afterAll(async () => { await t?.close(); });

  async function setUpTotp(email: string, signedUp = true) {
    const s = signedUp ? (await signUp(t.url, email, "header")).tokens : (await signUp(t.url, email, "header", "/auth/signin")).tokens;
    const dev = await postWithSession(t.url, "/totp/device", s, {});
    const v = await postWithSession(t.url, "/totp/device/verify", s, { deviceName: dev.json.deviceName, totp: generateCode(dev.json.secret, t.clock.now()) });
    expect(v.json.status).toBe("OK");
    return jwtPayload(s.access).sub as string;
  }
  const mfaV = async (email: string, password?: string) => {
    const body = { formFields: [{ id: "email", value: email }, { id: "password", value: password ?? "correct horse battery staple" }] };
    const res = await postJson(`${t.url}/auth/signin`, body, { "st-auth-mode": "header" });
    expect(((await res.json()) as { status: string }).status).toBe("OK");
    return jwtPayload(res.headers.get("st-access-token")!)["st-mfa"].v as boolean;
  };
  const mails = (to: string, kind: string) => t.app.store.db.selectFrom("mail_outbox").selectAll().where("to_address", "=", to).where("kind", "=", kind).execute();

  it("a password reset never removes the second factor", async () => {
    await setUpTotp("forgot@example.com");
    const tokenRes = await postJson(`${t.url}/auth/user/password/reset/token`, { formFields: [{ id: "email", value: "forgot@example.com" }] });
    const { token } = (await tokenRes.json()) as { token: string };
    const reset = await postJson(`${t.url}/auth/user/password/reset`, { method: "token", token, formFields: [{ id: "password", value: NEW_PW }] });
    expect(await reset.json()).toEqual({ status: "OK" });
    expect(await mfaV("forgot@example.com", NEW_PW)).toBe(false);
  });

  it("the admin API removes devices and recovery codes, records mfa.reset and mails the user; the next sign-in needs no code", async () => {
    const id = await setUpTotp("lost-phone@example.com");
    expect(await mfaV("lost-phone@example.com")).toBe(false);
    const r = await admin(t, "DELETE", `/users/${id}/mfa`);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ userId: id, removedDevices: 1, changed: true });
    const events = await listEvents(t.app.store.db, { type: "mfa.reset", userId: id });
    expect(events.map((e) => JSON.parse(e.data!))).toEqual([{ source: "admin-api", removedDevices: 1 }]);
    const sent = await mails("lost-phone@example.com", "mfa_reset");
    expect(sent.map((m) => m.subject)).toEqual(["Your second factor was removed"]);
    expect(await t.app.store.db.selectFrom("mfa_recovery_codes").selectAll().where("user_id", "=", id).execute()).toEqual([]);
    expect(await mfaV("lost-phone@example.com")).toBe(true);
    // Again: nothing to remove, nothing mailed.
    expect((await admin(t, "DELETE", `/users/${id}/mfa`)).body).toEqual({ userId: id, removedDevices: 0, changed: false });
    expect(await mails("lost-phone@example.com", "mfa_reset")).toHaveLength(1);
    expect((await admin(t, "DELETE", "/users/no-such-user/mfa")).status).toBe(404);
  });

  it("authsvc users mfa reset does the same from the command line", async () => {
    const id = await setUpTotp("cli-reset@example.com");
    const args = (ref: string) => ["users", "mfa", "reset", ref, "--database", t.config.database];
    expect(await runCli(args("cli-reset@example.com"))).toEqual({ code: 0, stdout: "removed the second factor of cli-reset@example.com (1 device(s)); they were mailed\n", stderr: "" });
    expect(await mfaV("cli-reset@example.com")).toBe(true);
    const json = await runCli([...args(id), "--json"]);
    expect(JSON.parse(json.stdout)).toEqual({ userId: id, removedDevices: 0, changed: false });
    expect((await listEvents(t.app.store.db, { type: "mfa.reset", userId: id })).map((e) => JSON.parse(e.data!).source)).toEqual(["cli"]);
    expect((await runCli(args("nobody@example.com"))).code).toBe(1);
  });
});
