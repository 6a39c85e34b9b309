import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { backends, type Backend } from "../helpers/backends.js";
import { CONFIDENTIAL, signInWithProvider, startOidcProvider, type TestIdp } from "../helpers/oidc-provider.js";
import { createTestApp, type TestApp } from "../helpers/test-app.js";
import { fixture, importHarness } from "./harness.js";

/** better-auth's database as its migration leaves it, on the same kind of database as ours: a SQLite file, or a PostgreSQL schema. */
async function betterAuthDatabase(backend: Backend): Promise<{ url: string; drop(): Promise<void> }> {
  const sql = readFileSync(fixture("better-auth.sql"), "utf8");
  if (backend.name === "sqlite") {
    const file = join(mkdtempSync(join(tmpdir(), "better-auth-")), "auth.db");
    const db = new Database(file);
    db.exec(sql);
    db.close();
    return { url: file, drop: async () => {} };
  }
  const created = await backend.create();
  const url = new URL(created.url);
  const client = new pg.Client({ connectionString: created.url.replace(/[?&]schema=[^&]*/, "") });
  await client.connect();
  await client.query(`set search_path to "${url.searchParams.get("schema")}"`);
  await client.query(sql);
  await client.end();
  return created;
}

describe.each(backends)("users import --from better-auth: its tables, from its database ($name)", (backend) => {
  let t: TestApp, idp: TestIdp, source: { url: string; drop(): Promise<void> };
  beforeAll(async () => {
    idp = await startOidcProvider();
    // "Sign in with Google" against a test identity provider: the subject is the login name.
    const providers = [{ thirdPartyId: "google", name: "Google", oidcDiscoveryEndpoint: idp.discovery, clientId: CONFIDENTIAL.clientId, clientSecret: CONFIDENTIAL.clientSecret, scope: ["openid", "email"] }];
    t = await createTestApp({ backend, config: { providers } });
    source = await betterAuthDatabase(backend);
  });
  afterAll(async () => { await t.close(); await idp.close(); await source.drop(); });
  const h = importHarness(() => t);

  it("keeps ids, the scrypt password, social accounts, emailVerified and createdAt; TOTP is not carried", async () => {
    await h.dryRunThenImport(["--from", "better-auth", source.url], 2);
    const ada = "Xq3nR8vT2mK9pL4wZ7yB1cD6fG5hJ0aS";
    expect(await h.signIn("ada@example.com", "correct horse battery staple")).toMatchObject({ status: "OK", user: { id: ada } });
    expect((await h.signIn("ada@example.com", "correct horse battery stapler")).status).toBe("WRONG_CREDENTIALS_ERROR");
    expect(await h.user(ada)).toMatchObject({ time_joined: Date.parse("2024-02-01T09:59:00.500Z") });
    expect(await h.verified(ada)).toEqual(["ada@example.com"]);
    expect(await h.metadata(ada)).toEqual({ name: "Ada Lovelace", image: "https://example.com/ada.png" });

    const grace = "b7e2c1d4-3f5a-4e6b-9c8d-0a1b2c3d4e5f";
    expect(await h.identity("github", "583231")).toEqual({ user_id: grace, email: "grace@example.com" });
    expect(await h.verified(grace)).toEqual([]);
    idp.accounts.set("109876543210987654321", { email: "grace@example.com", email_verified: true });
    const google = await signInWithProvider(t.url, "google", "109876543210987654321");
    expect(google.json).toMatchObject({ status: "OK", createdNewRecipeUser: false, user: { id: grace } });
    expect(await t.app.store.db.selectFrom("totp_devices").select("user_id").where("user_id", "=", grace).execute()).toEqual([]);
  });

  it("says which table it cannot read when the file is not better-auth's", async () => {
    const r = await h.cli(["--from", "better-auth", t.config.database]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^authsvc: cannot read better-auth's database: .*"?user"?/);
  });
});
