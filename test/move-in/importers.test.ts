import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTotpSecret } from "../../src/methods/totp/seal.js";
import { backends } from "../helpers/backends.js";
import { runCli } from "../helpers/cli.js";
import { credentials, postJson } from "../helpers/session-client.js";
import { useTempDirs } from "../helpers/temp-dirs.js";
import { createTestApp, type TestApp } from "../helpers/test-app.js";

const { tempDir } = useTempDirs("move-in-importers");
const fixture = (name: string) => new URL(`../fixtures/move-in/${name}`, import.meta.url).pathname;

describe.each(backends)("users import --from: sample exports in each source's documented shape ($name)", (backend) => {
  let t: TestApp;
  beforeAll(async () => { t = await createTestApp({ backend }); });
  afterAll(async () => { await t.close(); });
  const cli = (args: string[]) => runCli(["users", "import", ...args, "--database", t.config.database]);
  const signIn = async (email: string, password: string) => (await (await postJson(`${t.url}/auth/signin`, credentials(email, password), { rid: "emailpassword" })).json()) as { status: string; user?: { id: string } };
  const db = () => t.app.store.db;
  const identity = (provider: string, subject: string) => db().selectFrom("third_party_identities").select(["user_id", "email"]).where("provider_id", "=", provider).where("provider_user_id", "=", subject).executeTakeFirst();
  const metadata = async (id: string) => JSON.parse((await db().selectFrom("user_metadata").select("data").where("user_id", "=", id).executeTakeFirstOrThrow()).data);
  const user = (id: string) => db().selectFrom("users").select(["id", "email", "time_joined"]).where("id", "=", id).executeTakeFirst();
  const verified = async (id: string) => (await db().selectFrom("verified_emails").select("email").where("user_id", "=", id).execute()).map((r) => r.email);

  /** A dry run reports and writes nothing; the import creates; a second run creates nothing. */
  async function dryRunThenImport(args: string[], created: number) {
    const dry = await cli([...args, "--dry-run", "--json"]);
    expect(JSON.parse(dry.stdout)).toMatchObject({ dryRun: true, created, refused: 0, conflicts: 0 });
    const real = await cli(args);
    expect(real.stdout).toContain(`${created} created, 0 skipped (duplicates), 0 refused`);
    expect(real.code).toBe(0);
    const again = await cli([...args, "--json"]);
    expect(JSON.parse(again.stdout)).toMatchObject({ created: 0, skipped: created, conflicts: 0 });
  }

  it("auth0: the user export and the password-hash export", async () => {
    await dryRunThenImport(["--from", "auth0", fixture("auth0-users.json"), fixture("auth0-passwords.json")], 2);
    const ada = await signIn("ada@example.com", "auth0 horse battery");
    expect(ada).toMatchObject({ status: "OK", user: { id: "auth0|60425dc43519d90068f82973" } });
    expect(await user("auth0|60425dc43519d90068f82973")).toMatchObject({ time_joined: Date.parse("2021-03-05T16:38:28.830Z") });
    expect(await verified("auth0|60425dc43519d90068f82973")).toEqual(["ada@example.com"]);
    expect(await metadata("auth0|60425dc43519d90068f82973")).toEqual({ user_metadata: { theme: "dark" }, app_metadata: { plan: "pro" } });
    expect(await identity("google", "103547991597142817347")).toEqual({ user_id: "google-oauth2|103547991597142817347", email: "grace@gmail.com" });
    expect(await signIn("ada@example.com", "wrong horse battery")).toEqual({ status: "WRONG_CREDENTIALS_ERROR" });
  });

  it("firebase: auth:export JSON with the console's hash_config block", async () => {
    const args = ["--from", "firebase", fixture("firebase-users.json"), "--firebase-hash-config", fixture("firebase-hash-config.txt")];
    expect((await runCli(["users", "import", "--from", "firebase", fixture("firebase-users.json"), "--database", t.config.database])).stderr).toContain("needs --firebase-hash-config");
    await dryRunThenImport(args, 2);
    expect(await signIn("user1@example.com", "user1password")).toMatchObject({ status: "OK", user: { id: "Ptuf5NVSQCaHUdi0BUJvtxvYrOj1" } });
    const stored = await db().selectFrom("email_password_credentials").select("password_hash").where("email", "=", "user1@example.com").executeTakeFirstOrThrow();
    expect(stored.password_hash).toMatch(/^bcrypt-sha384:/);
    expect(await metadata("Ptuf5NVSQCaHUdi0BUJvtxvYrOj1")).toEqual({ role: "editor" });
    expect(await identity("google", "114576351867291548235")).toEqual({ user_id: "Zm9vYmFyYmF6cXV4MTIzNDU2Nzg5", email: "linus@gmail.com" });
    expect(await user("Zm9vYmFyYmF6cXV4MTIzNDU2Nzg5")).toMatchObject({ time_joined: 1628000000000 });
  });

  it("supabase: auth.users, auth.identities and auth.mfa_factors as CSV", async () => {
    await dryRunThenImport(["--from", "supabase", fixture("supabase-users.csv"), fixture("supabase-identities.csv"), fixture("supabase-mfa-factors.csv")], 2);
    const mia = "8d2c7b1e-4f0a-4c39-9a57-2f1e0b6d5c11";
    expect(await signIn("mia@example.com", "supabase horse battery")).toMatchObject({ status: "OK", user: { id: mia } });
    expect(await user(mia)).toMatchObject({ time_joined: Date.parse("2024-02-01T09:59:00.5Z") });
    expect(await verified(mia)).toEqual(["mia@example.com"]);
    expect(await metadata(mia)).toEqual({ user_metadata: { full_name: "Mia Example", email_verified: true }, app_metadata: { provider: "email", providers: ["email"] } });
    const device = await db().selectFrom("totp_devices").selectAll().where("user_id", "=", mia).executeTakeFirstOrThrow();
    expect(device).toMatchObject({ name: "phone app" });
    expect(device.verified_at).not.toBeNull();
    expect(openTotpSecret(device, t.config.secret)).toBe("JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP");
    expect(await identity("google", "109876543210987654321")).toEqual({ user_id: "1b9f0c4d-7e2a-4b61-8d3c-5a6f7e8d9c02", email: "noor@gmail.com" });
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
