import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { backends } from "../helpers/backends.js";
import { runCli } from "../helpers/cli.js";
import { jwtPayload } from "../helpers/session-client.js";
import { signInWithProvider, startOidcProvider, CONFIDENTIAL, type TestIdp } from "../helpers/oidc-provider.js";
import { useTempDirs } from "../helpers/temp-dirs.js";
import { createTestApp, type TestApp } from "../helpers/test-app.js";
import { fixture, importHarness } from "./harness.js";

const { tempDir } = useTempDirs("move-in-importers");

describe.each(backends)("users import --from: sample exports in each source's documented shape ($name)", (backend) => {
  let t: TestApp, idp: TestIdp;
  beforeAll(async () => {
    idp = await startOidcProvider();
    const providers = [{ thirdPartyId: "google", name: "Google", oidcDiscoveryEndpoint: idp.discovery, clientId: CONFIDENTIAL.clientId, clientSecret: CONFIDENTIAL.clientSecret, scope: ["openid", "email"] }];
    t = await createTestApp({ backend, config: { providers } });
  });
  afterAll(async () => { await t.close(); await idp.close(); });
  const h = importHarness(() => t);
  const { cli, signIn, metadata, user, verified, dryRunThenImport } = h;
  const db = () => t.app.store.db;
  /** Signs in at the test provider standing in for Google as `subject` with `email`: the answer of /auth/signinup. */
  async function googleSignIn(subject: string, email: string) {
    idp.accounts.set(subject, { email, email_verified: true });
    return (await signInWithProvider(t.url, "google", subject)).json;
  }

  it("auth0: the user export and the password-hash export", async () => {
    await dryRunThenImport(["--from", "auth0", fixture("auth0-users.json"), fixture("auth0-passwords.json")], 2);
    const ada = await signIn("ada@example.com", "auth0 horse battery");
    expect(ada).toMatchObject({ status: "OK", user: { id: "auth0|60425dc43519d90068f82973" } });
    expect(await user("auth0|60425dc43519d90068f82973")).toMatchObject({ time_joined: Date.parse("2021-03-05T16:38:28.830Z") });
    expect(await verified("auth0|60425dc43519d90068f82973")).toEqual(["ada@example.com"]);
    expect(await metadata("auth0|60425dc43519d90068f82973")).toEqual({ user_metadata: { theme: "dark" }, app_metadata: { plan: "pro" } });
    expect(await googleSignIn("103547991597142817347", "grace@gmail.com")).toMatchObject({ status: "OK", createdNewRecipeUser: false, user: { id: "google-oauth2|103547991597142817347" } });
    expect(await signIn("ada@example.com", "wrong horse battery")).toMatchObject({ status: "WRONG_CREDENTIALS_ERROR" });
  });

  it("firebase: auth:export JSON with the console's hash_config block", async () => {
    const args = ["--from", "firebase", fixture("firebase-users.json"), "--firebase-hash-config", fixture("firebase-hash-config.txt")];
    expect((await runCli(["users", "import", "--from", "firebase", fixture("firebase-users.json"), "--database", t.config.database])).stderr).toContain("needs --firebase-hash-config");
    await dryRunThenImport(args, 2);
    expect(await signIn("user1@example.com", "user1password")).toMatchObject({ status: "OK", user: { id: "Ptuf5NVSQCaHUdi0BUJvtxvYrOj1" } });
    const stored = await db().selectFrom("email_password_credentials").select("password_hash").where("email", "=", "user1@example.com").executeTakeFirstOrThrow();
    expect(stored.password_hash).toMatch(/^bcrypt-sha384:/);
    expect(await metadata("Ptuf5NVSQCaHUdi0BUJvtxvYrOj1")).toEqual({ role: "editor" });
    expect(await googleSignIn("114576351867291548235", "linus@gmail.com")).toMatchObject({ status: "OK", createdNewRecipeUser: false, user: { id: "Zm9vYmFyYmF6cXV4MTIzNDU2Nzg5" } });
    expect(await user("Zm9vYmFyYmF6cXV4MTIzNDU2Nzg5")).toMatchObject({ time_joined: 1628000000000 });
  });

  it("supabase: auth.users, auth.identities and auth.mfa_factors as CSV", async () => {
    await dryRunThenImport(["--from", "supabase", fixture("supabase-users.csv"), fixture("supabase-identities.csv"), fixture("supabase-mfa-factors.csv")], 2);
    const mia = "8d2c7b1e-4f0a-4c39-9a57-2f1e0b6d5c11";
    // The carried factor: her password alone is not enough; a code from the secret Supabase held completes her sign-in.
    await h.expectSecondFactorKept("mia@example.com", "supabase horse battery", mia, "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP");
    expect(await user(mia)).toMatchObject({ time_joined: Date.parse("2024-02-01T09:59:00.5Z") });
    expect(await verified(mia)).toEqual(["mia@example.com"]);
    expect(await metadata(mia)).toEqual({ user_metadata: { full_name: "Mia Example", email_verified: true }, app_metadata: { provider: "email", providers: ["email"] } });
    expect(await db().selectFrom("totp_devices").select("name").where("user_id", "=", mia).executeTakeFirstOrThrow()).toEqual({ name: "phone app" });
    expect(await googleSignIn("109876543210987654321", "noor@gmail.com")).toMatchObject({ status: "OK", createdNewRecipeUser: false, user: { id: "1b9f0c4d-7e2a-4b61-8d3c-5a6f7e8d9c02" } });
  });

  it("json lines: a record's totp devices are asked for at sign-in, as devices set up here are", async () => {
    const file = join(tempDir(), "totp.jsonl");
    writeFileSync(file, [
      JSON.stringify({ id: "jl-totp", email: "otp@example.com", passwordHash: "$2b$04$xCsijdpnR5qx/hDdqXeiEeFutIiAY.x4d9cVo2FxFtxCj2Qlej/FK", totp: [{ secret: "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP", name: "phone" }] }),
      JSON.stringify({ id: "jl-plain", email: "plain@example.com", passwordHash: "$2b$04$xCsijdpnR5qx/hDdqXeiEeFutIiAY.x4d9cVo2FxFtxCj2Qlej/FK", totp: [] }),
    ].join("\n"));
    await dryRunThenImport([file], 2);
    await h.expectSecondFactorKept("otp@example.com", "auth0 horse battery", "jl-totp", "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP");
    // A record without a device asks for nothing more than the password.
    const plain = await signIn("plain@example.com", "auth0 horse battery");
    expect(jwtPayload(plain.tokens!.access)["st-mfa"]).toMatchObject({ v: true });
  });

  it("--from authsvc: a refused line is named once, by its file and line, on the terminal and in --json", async () => {
    const file = join(tempDir(), "u.jsonl");
    writeFileSync(file, [
      JSON.stringify({ id: "from-ok", email: "from-ok@example.com", passwordHash: "$2b$04$xCsijdpnR5qx/hDdqXeiEeFutIiAY.x4d9cVo2FxFtxCj2Qlej/FK" }),
      "",
      "{not json",
      JSON.stringify({ id: "from-bad", passwordHash: "$2b$04$xCsijdpnR5qx/hDdqXeiEeFutIiAY.x4d9cVo2FxFtxCj2Qlej/FK" }),
    ].join("\n"));
    await h.dryRunThenImportRefusing(["--from", "authsvc", file], 1, [[`${file} line 3`, "not valid JSON"], [`${file} line 4`, "email is missing or not a string"]]);
    // The same file without --from: its own line numbers, once.
    const plain = await cli([file, "--dry-run"]);
    expect(plain.stdout.split("\n").filter((l) => l.includes(": refused: "))).toEqual(["  line 3: refused: not valid JSON", "  line 4: refused: email is missing or not a string"]);
    expect(await user("from-ok")).toMatchObject({ email: "from-ok@example.com" });
  });

  it("stops with a list before writing anything when one address would belong to two people", async () => {
    const file = join(tempDir(), "users.jsonl");
    writeFileSync(file, [
      JSON.stringify({ id: "new-1", email: "fresh@example.com", passwordHash: "$2b$04$xCsijdpnR5qx/hDdqXeiEeFutIiAY.x4d9cVo2FxFtxCj2Qlej/FK" }),
      JSON.stringify({ id: "someone-else", email: "ada@example.com", passwordHash: "$2b$04$xCsijdpnR5qx/hDdqXeiEeFutIiAY.x4d9cVo2FxFtxCj2Qlej/FK" }),
      JSON.stringify({ id: "new-2", email: "twice@example.com", passwordHash: "$2b$04$xCsijdpnR5qx/hDdqXeiEeFutIiAY.x4d9cVo2FxFtxCj2Qlej/FK" }),
      JSON.stringify({ id: "new-3", email: "twice@example.com", passwordHash: "$2b$04$xCsijdpnR5qx/hDdqXeiEeFutIiAY.x4d9cVo2FxFtxCj2Qlej/FK" }),
    ].join("\n"));
    const r = await cli([file]);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe("authsvc: 2 conflict(s): one address or identity for two people; nothing was written\n");
    expect(r.stdout).toContain("  line 2: conflict: the address ada@example.com belongs to user auth0|60425dc43519d90068f82973, not someone-else");
    expect(r.stdout).toContain("  line 4: conflict: the address twice@example.com is also on line 3 (user new-2)");
    expect(await user("new-1")).toBeUndefined();
  });
});
