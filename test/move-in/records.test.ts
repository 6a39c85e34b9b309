import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { MOVE_IN_SOURCES, readSource } from "../../src/move-in/sources.js";
import { rooms } from "../../src/rooms.js";
import { postgresBackend } from "../helpers/backends.js";
import { fixture, supabaseDatabase } from "./harness.js";

const pgUrl = process.env.AUTHSVC_TEST_PG_URL;
const parts = rooms.flatMap((r) => (r.importer ? [r.importer] : []));
const dir = mkdtempSync(join(tmpdir(), "move-in-records-"));
const file = (name: string, lines: string[]) => { const f = join(dir, name); writeFileSync(f, lines.join("\n") + "\n"); return f; };
const fixtures = fixture("x").slice(0, -1);

/**
 * Every row a source hands `users import`, as JSON, one a line: the records (their key order
 * included) and the refusals each source writes, pinned in records/<source>.jsonl. A change to how a
 * source says what it knows must leave these lines as they are.
 */
async function lines(id: string, files: string[], options = {}, using = parts): Promise<string> {
  const source = MOVE_IN_SOURCES.find((s) => s.id === id)!;
  const out: string[] = [];
  for await (const row of readSource(source, files, options, using)) out.push(JSON.stringify(row).replaceAll(dir, "<dir>").replaceAll(fixtures, "<fixtures>/"));
  return out.join("\n") + "\n";
}

describe("users import --from: the records each source writes", () => {
  it("auth0: database users with and without a hash (matched by id or address), social identities, skipped connections", async () => {
    const users = file("auth0-more.json", [
      JSON.stringify({ user_id: "auth0|nohash", email: "NoHash@example.com", email_verified: false, created_at: "2021-01-01T00:00:00.000Z", identities: [{ provider: "auth0", user_id: "nohash" }] }),
      JSON.stringify({ user_id: "auth0|byaddress", email: "ByAddress@example.com", identities: [] }),
      JSON.stringify({ user_id: "auth0|both", email: "both@example.com", email_verified: true, identities: [{ provider: "auth0", user_id: "both" }, { provider: "github", user_id: 12345 }, { provider: "email", user_id: "x" }, { provider: "sms", user_id: "y" }], user_metadata: {}, app_metadata: { a: 1 } }),
      JSON.stringify({ user_id: "windowslive|abc", identities: [{ provider: "windowslive", user_id: "abc" }] }),
    ]);
    const hashes = file("auth0-more-hashes.json", [JSON.stringify({ email: "byaddress@example.com", passwordHash: "$2b$04$xCsijdpnR5qx/hDdqXeiEeFutIiAY.x4d9cVo2FxFtxCj2Qlej/FK" })]);
    await expect(await lines("auth0", [fixture("auth0-users.json"), fixture("auth0-passwords.json"), users, hashes])).toMatchFileSnapshot("records/auth0.jsonl");
  });

  it("firebase: JSON and CSV, passwords, providers with and without their own address, users with neither", async () => {
    const more = file("firebase-more.json", [JSON.stringify({ users: [
      { localId: "nopass", email: "nopass@example.com", emailVerified: true, createdAt: "1600000000000" },
      { localId: "apple", email: "a@example.com", providerUserInfo: [{ providerId: "apple.com", rawId: "001.apple", email: "relay@privaterelay.appleid.com" }, { providerId: "phone", rawId: "+15550000000" }, { providerId: "github.com" }] },
      { localId: "phoneonly", providerUserInfo: [{ providerId: "phone", rawId: "+15550000001" }] },
    ] })]);
    const options = { firebaseHashConfig: readFileSync(fixture("firebase-hash-config.txt"), "utf8") };
    await expect(await lines("firebase", [fixture("firebase-users.json"), fixture("firebase-users.csv"), more], options)).toMatchFileSnapshot("records/firebase.jsonl");
  });

  it("clerk: digests, no digest, the TOTP secret, and the rows it refuses", async () => {
    const header = readFileSync(fixture("clerk-users.csv"), "utf8").split("\n")[0];
    const more = file("clerk-more.csv", [
      header,
      "user_md5,,,,md5@example.com,,md5@example.com,,,,,5f4dcc3b5aa765d61d8327deb882cf99,md5",
      "user_phone,,,,,+15550000000,,,+15550000000,,,,",
      "user_fb,,,,fb@example.com,,,,,,,a$b$c,scrypt_firebase",
      ",,,,anon@example.com,,anon@example.com,,,,JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP,,",
    ]);
    await expect(await lines("clerk", [fixture("clerk-users.csv"), more])).toMatchFileSnapshot("records/clerk.jsonl");
  });

  it("supabase (CSV): passwords, identities by provider_id or identity_data, verified factors only, deleted users left behind", async () => {
    const users = file("supabase-users.csv", [
      "id,email,encrypted_password,email_confirmed_at,created_at,raw_app_meta_data,raw_user_meta_data,deleted_at",
      "u-1,one@example.com,,2024-01-01 00:00:00+00,2024-01-01 00:00:00+00,,,",
      "u-2,two@example.com,,,2024-01-02 00:00:00+00,,,",
      "u-3,,,,2024-01-03 00:00:00+00,,,",
      "u-4,gone@example.com,$2a$04$m9LWtm7oyTqls6YDhNGReusNvEVX.f9tmvrA/j4rEL0gfJNnM4sZm,,2024-01-04 00:00:00+00,,,2024-02-01 00:00:00+00",
    ]);
    const identities = file("supabase-identities.csv", [
      "provider_id,user_id,identity_data,provider,created_at,email",
      `,u-1,"{""sub"": ""gh-1"", ""email"": ""one@github.example"", ""email_verified"": true}",github,2024-01-05 00:00:00+00,`,
      `,u-2,"{""sub"": ""ph""}",phone,,`,
    ]);
    const factors = file("supabase-factors.csv", [
      "user_id,factor_type,status,secret,friendly_name",
      "u-1,totp,unverified,JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP,",
      "u-1,totp,verified,GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ,",
      "u-2,phone,verified,,",
    ]);
    await expect(await lines("supabase", [fixture("supabase-users.csv"), fixture("supabase-identities.csv"), fixture("supabase-mfa-factors.csv")])).toMatchFileSnapshot("records/supabase.jsonl");
    await expect(await lines("supabase", [users, identities, factors])).toMatchFileSnapshot("records/supabase-more.jsonl");
  });

  it("refuses a person with something no room here takes, saying what, and moves the others", async () => {
    const withoutSecrets = parts.filter((p) => !p.takes?.["authenticator-secret"]);
    const clerk = (await lines("clerk", [fixture("clerk-users.csv")], {}, withoutSecrets)).split("\n");
    expect(clerk[0]).toBe(`{"line":1,"where":"<fixtures>/clerk-users.csv line 2","refused":"an authenticator app's secret cannot move: no sign-in method on this server takes it"}`);
    expect(clerk.slice(1).join("\n")).toBe((await lines("clerk", [fixture("clerk-users.csv")])).split("\n").slice(1).join("\n"));
    const withoutProviders = parts.filter((p) => !p.takes?.["provider-identity"]);
    expect(await lines("auth0", [fixture("auth0-users.json"), fixture("auth0-passwords.json")], {}, withoutProviders)).toContain(
      `{"line":2,"where":"<fixtures>/auth0-users.json line 2","refused":"an identity at a provider for grace@gmail.com cannot move: no sign-in method on this server takes it"}`);
  });

  it("keycloak, the auth0 import file and kratos: passwords as their objects, authenticator secrets, roles, groups, refusals", async () => {
    await expect(await lines("keycloak", [fixture("keycloak-realm.json")], { groupsAsOrganizations: true })).toMatchFileSnapshot("records/keycloak.jsonl");
    await expect(await lines("auth0", [fixture("auth0-import.json")])).toMatchFileSnapshot("records/auth0-import.jsonl");
    await expect(await lines("kratos", [fixture("kratos-identities.json")])).toMatchFileSnapshot("records/kratos.jsonl");
  });

  it("better-auth (SQLite): the credential password, social accounts, users with neither", async () => {
    const db = join(dir, "better-auth.db");
    const sqlite = new Database(db);
    sqlite.exec(readFileSync(fixture("better-auth.sql"), "utf8"));
    sqlite.exec(`insert into "user" values ('zz-nopass', '', 'nopass@example.com', 1, null, '2024-04-01T00:00:00.000Z', '2024-04-01T00:00:00.000Z', false);
      insert into "account" values ('acc_zz', 'zz-nopass', 'credential', 'zz-nopass', null, null, null, null, null, null, '', '2024-04-01T00:00:00.000Z', '2024-04-01T00:00:00.000Z');`);
    sqlite.close();
    await expect(await lines("better-auth", [db])).toMatchFileSnapshot("records/better-auth.jsonl");
  });
});

describe.runIf(pgUrl)("users import --from: the records each database source writes", () => {
  const drops: Array<() => Promise<void>> = [];
  afterAll(async () => { for (const d of drops) await d(); });

  it("supertokens: linked login methods, TOTP devices, metadata; a phone-only and a WebAuthn login are not moved", async () => {
    const source = await postgresBackend.create();
    drops.push(source.drop);
    const c = new pg.Client({ connectionString: pgUrl });
    await c.connect();
    await c.query(`set search_path to "${new URL(source.url).searchParams.get("schema")}"`);
    await c.query(readFileSync(fixture("supertokens-core.sql"), "utf8"));
    await c.query(`insert into all_auth_recipe_users (user_id, primary_or_recipe_user_id, is_linked_or_is_a_primary_user, recipe_id, time_joined, primary_or_recipe_user_time_joined) values
      ('4f1c2d3e-0000-4000-8000-00000000d0d0', '4f1c2d3e-0000-4000-8000-00000000d0d0', false, 'passwordless', 1700003000000, 1700003000000),
      ('4f1c2d3e-0000-4000-8000-00000000e0e0', '4f1c2d3e-0000-4000-8000-00000000e0e0', true, 'emailpassword', 1700004000000, 1700004000000),
      ('4f1c2d3e-0000-4000-8000-00000000e0e1', '4f1c2d3e-0000-4000-8000-00000000e0e0', true, 'webauthn', 1700004500000, 1700004000000)`);
    await c.query(`insert into passwordless_users (user_id, email, phone_number, time_joined) values ('4f1c2d3e-0000-4000-8000-00000000d0d0', null, '+15550000000', 1700003000000)`);
    await c.query(`insert into emailpassword_users (user_id, email, password_hash, time_joined) values ('4f1c2d3e-0000-4000-8000-00000000e0e0', 'eve@example.com', '$argon2id$v=19$m=4096,t=2,p=2$39YsMs1CkecgTJ4i6ZSoFw$bs+WBKGeDRryzlPwccS8Ig', 1700004000000)`);
    await c.query(`insert into totp_user_devices (user_id, device_name, secret_key, period, skew, verified, created_at) values
      ('4f1c2d3e-0000-4000-8000-00000000e0e0', 'b', 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ', 30, 1, true, 1700004100000),
      ('4f1c2d3e-0000-4000-8000-00000000e0e0', 'a', 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP', 30, 1, true, 1700004100000),
      ('4f1c2d3e-0000-4000-8000-00000000e0e0', 'c', 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP', 30, 1, false, 1700004200000)`);
    await c.end();
    await expect(await lines("supertokens", [source.url])).toMatchFileSnapshot("records/supertokens.jsonl");
  });

  it("supabase (database): the same records as its CSV exports", async () => {
    const source = await supabaseDatabase();
    drops.push(source.drop);
    await expect(await lines("supabase", [source.url])).toMatchFileSnapshot("records/supabase-db.jsonl");
  });
});
