import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { backends } from "../helpers/backends.js";
import { runCli } from "../helpers/cli.js";
import { createTestApp, type TestApp } from "../helpers/test-app.js";
import { SoftwareAuthenticator } from "../helpers/software-authenticator.js";
import { admin, KEY } from "../http/admin/admin-client.js";
import { createRegistrationOptions } from "../../src/methods/webauthn/relying-party.js";
import { signUpWithPasskey } from "../../src/methods/webauthn/accounts.js";
import { addCredential } from "../../src/methods/webauthn/credentials.js";
import { createSession } from "../../src/core/sessions.js";
import { markEmailVerified } from "../../src/store/users.js";

/** Passkeys in the admin API and the CLI: list, remove one, never the last way in. */
describe.each(backends)("passkeys for administrators ($name)", (backend) => {
  let t: TestApp;
  let userId = "";
  let ids: string[] = [];
  const cli = (args: string[]) => runCli([...args, "--database", t.config.database]);

  beforeEach(async () => {
    t = await createTestApp({ backend, config: { adminApiKey: KEY } });
    const auth = new SoftwareAuthenticator("http://localhost:3000");
    const first = await createRegistrationOptions(t.app.ctx, { email: "ada@example.com" });
    const up = await signUpWithPasskey(t.app.ctx, { optionsId: first.webauthnGeneratedOptionsId, credential: auth.register(first) as never });
    if (up.status !== "OK") throw new Error(up.status);
    userId = up.recipeUserId;
    t.clock.advance(1000);
    // Adding a passkey needs a fresh session of a person with a verified address (docs/account-linking.md).
    await markEmailVerified(t.app.store.db, userId, "ada@example.com", t.clock.now());
    const session = await createSession(t.app.ctx, userId, { factor: "webauthn" });
    const second = await createRegistrationOptions(t.app.ctx, { email: "ada@example.com" });
    const added = await addCredential(t.app.ctx, { session: { userId, sessionHandle: session.sessionHandle }, recipeUserId: userId, optionsId: second.webauthnGeneratedOptionsId, credential: new SoftwareAuthenticator("http://localhost:3000").register(second) as never });
    if (added.status !== "OK") throw new Error(added.status);
    ids = [...auth.keys.keys(), added.webauthnCredentialId];
  });
  afterEach(async () => { await t.close(); });

  it("admin API: lists the passkeys, removes one, refuses the last with 409, 404 for unknown ones", async () => {
    const list = await admin(t, "GET", `/users/${userId}/passkeys`);
    expect(list.status).toBe(200);
    expect(list.body.passkeys.map((p: { webauthnCredentialId: string }) => p.webauthnCredentialId)).toEqual(ids);
    expect(JSON.stringify(list.body)).not.toMatch(/public_?key/i);
    expect((await admin(t, "DELETE", `/users/${userId}/passkeys/${ids[0]}`)).body).toEqual({ removed: true });
    const last = await admin(t, "DELETE", `/users/${userId}/passkeys/${ids[1]}`);
    expect(last.status).toBe(409);
    expect(last.body.message).toMatch(/last way to sign in/);
    expect((await admin(t, "DELETE", `/users/${userId}/passkeys/${ids[0]}`)).status).toBe(404);
    expect((await admin(t, "GET", "/users/nobody/passkeys")).status).toBe(404);
    const user = await admin(t, "GET", `/users/${userId}`);
    expect(user.body.user.loginMethods[0]).toMatchObject({ recipeId: "webauthn", webauthn: { credentialIds: [ids[1]] } });
  });

  it("CLI: passkeys list and remove, by email or id; the last one stays", async () => {
    const listed = await cli(["passkeys", "list", "--user", "ADA@example.com"]);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toContain(ids[0]);
    expect(listed.stdout).toContain(ids[1]);
    const json = await cli(["passkeys", "list", "--user", userId, "--json"]);
    expect(JSON.parse(json.stdout).passkeys).toHaveLength(2);
    const removed = await cli(["passkeys", "remove", "--user", userId, "--id", ids[0]]);
    expect(removed).toMatchObject({ code: 0, stdout: expect.stringContaining(`removed passkey ${ids[0]}`) });
    const refused = await cli(["passkeys", "remove", "--user", "ada@example.com", "--id", ids[1]]);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toMatch(/last way to sign in/);
    const unknown = await cli(["passkeys", "remove", "--user", userId, "--id", "nope"]);
    expect(unknown.code).not.toBe(0);
    expect(unknown.stderr).toMatch(/has no passkey nope/);
  });
});
