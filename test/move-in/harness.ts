import { readFileSync } from "node:fs";
import pg from "pg";
import { expect } from "vitest";
import { generateCode } from "../../src/methods/totp/secrets.js";
import { runCli } from "../helpers/cli.js";
import { credentials, postJson, postWithSession, readTokens } from "../helpers/session-client.js";
import type { TestApp } from "../helpers/test-app.js";

export const fixture = (name: string) => new URL(`../fixtures/move-in/${name}`, import.meta.url).pathname;

/** A database of its own on the test PostgreSQL server holding Supabase's auth schema and the fixture's rows; drop() removes it. */
export async function supabaseDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const pgUrl = process.env.AUTHSVC_TEST_PG_URL!;
  const name = `supabase_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  const admin = new pg.Client({ connectionString: pgUrl });
  await admin.connect();
  await admin.query(`create database "${name}"`);
  await admin.end();
  const url = new URL(pgUrl);
  url.pathname = `/${name}`;
  const c = new pg.Client({ connectionString: url.toString() });
  await c.connect();
  await c.query(readFileSync(fixture("supabase-auth.sql"), "utf8"));
  await c.end();
  return {
    url: url.toString(),
    drop: async () => { const a = new pg.Client({ connectionString: pgUrl }); await a.connect(); await a.query(`drop database if exists "${name}" with (force)`); await a.end(); },
  };
}

/** What a test of one importer asks of the server it imports into: the CLI, sign-in over HTTP, the rows. */
export function importHarness(app: () => TestApp) {
  const cli = (args: string[]) => runCli(["users", "import", ...args, "--database", app().config.database]);
  const db = () => app().app.store.db;
  return {
    cli,
    async signIn(email: string, password: string) {
      const res = await postJson(`${app().url}/auth/signin`, credentials(email, password), { rid: "emailpassword", "st-auth-mode": "header" });
      const json = (await res.json()) as { status: string; user?: { id: string } };
      return { ...json, tokens: json.status === "OK" ? readTokens(res, "header", json) : undefined };
    },
    /** A sign-in's second step with the TOTP code of `secret` now: OK when the imported device holds that secret. */
    async totp(signedIn: { tokens?: Parameters<typeof postWithSession>[2] }, secret: string) {
      return (await postWithSession(app().url, "/totp/verify", signedIn.tokens, { totp: generateCode(secret, app().clock.now()) })).json.status as string;
    },
    identity: (provider: string, subject: string) => db().selectFrom("third_party_identities").select(["user_id", "email"]).where("provider_id", "=", provider).where("provider_user_id", "=", subject).executeTakeFirst(),
    metadata: async (id: string) => JSON.parse((await db().selectFrom("user_metadata").select("data").where("user_id", "=", id).executeTakeFirstOrThrow()).data),
    user: (id: string) => db().selectFrom("users").select(["id", "email", "time_joined"]).where("id", "=", id).executeTakeFirst(),
    verified: async (id: string) => (await db().selectFrom("verified_emails").select("email").where("user_id", "=", id).orderBy("email").execute()).map((r) => r.email),
    /** A dry run reports and writes nothing; the import creates; a second run creates nothing. */
    async dryRunThenImport(args: string[], created: number) {
      const users = async () => Number((await db().selectFrom("users").select((e) => e.fn.countAll().as("n")).executeTakeFirstOrThrow()).n);
      const before = await users();
      const dry = await cli([...args, "--dry-run", "--json"]);
      expect(JSON.parse(dry.stdout)).toMatchObject({ dryRun: true, created, refused: 0, conflicts: 0 });
      expect(await users()).toBe(before);
      const real = await cli(args);
      expect(real.stdout).toContain(`${created} created, 0 skipped (duplicates), 0 refused`);
      expect(real.code).toBe(0);
      const again = await cli([...args, "--json"]);
      expect(JSON.parse(again.stdout)).toMatchObject({ created: 0, skipped: created, conflicts: 0 });
    },
  };
}
