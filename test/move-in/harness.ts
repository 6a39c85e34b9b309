import { readFileSync } from "node:fs";
import pg from "pg";
import { expect } from "vitest";
import { generateCode } from "../../src/methods/totp/secrets.js";
import { runCli } from "../helpers/cli.js";
import { createTestAdmin, dashboardSession, type DashboardClient } from "../helpers/dashboard.js";
import { credentials, jwtPayload, postJson, postWithSession, readTokens } from "../helpers/session-client.js";
import type { TestApp } from "../helpers/test-app.js";

export const fixture = (name: string) => new URL(`../fixtures/move-in/${name}`, import.meta.url).pathname;

/** A database of its own on the test PostgreSQL server holding a fixture's SQL (another system's tables and rows); drop() removes it. */
export async function fixtureDatabase(sqlFixture: string, prefix: string): Promise<{ url: string; drop(): Promise<void> }> {
  const pgUrl = process.env.AUTHSVC_TEST_PG_URL!;
  const name = `${prefix}_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  const run = async (url: string, text: string) => { const c = new pg.Client({ connectionString: url }); await c.connect(); try { await c.query(text); } finally { await c.end(); } };
  await run(pgUrl, `create database "${name}"`);
  const url = new URL(pgUrl);
  url.pathname = `/${name}`;
  await run(url.toString(), readFileSync(fixture(sqlFixture), "utf8"));
  return { url: url.toString(), drop: () => run(pgUrl, `drop database if exists "${name}" with (force)`) };
}

/** Supabase's auth schema with the fixture's rows. */
export const supabaseDatabase = () => fixtureDatabase("supabase-auth.sql", "supabase");

/** What a test of one importer asks of the server it imports into: the CLI, sign-in over HTTP, the rows. */
export function importHarness(app: () => TestApp) {
  const cli = (args: string[]) => runCli(["users", "import", ...args, "--database", app().config.database]);
  const db = () => app().app.store.db;
  let dashboard: { app: TestApp; client: DashboardClient } | undefined;
  /** What the dashboard's person page says under "Required at sign-in" (an admin signed in once per app). */
  async function requiredAtSignIn(id: string): Promise<string | undefined> {
    if (dashboard?.app !== app()) dashboard = { app: app(), client: await dashboardSession(app().url, await createTestAdmin(app().app)) };
    const page = await (await dashboard.client.get(`/admin/users/${encodeURIComponent(id)}`)).text();
    return /<dt>Required at sign-in<\/dt><dd>(\w+)<\/dd>/.exec(page)?.[1];
  }
  async function signIn(email: string, password: string) {
    const res = await postJson(`${app().url}/auth/signin`, credentials(email, password), { rid: "emailpassword", "st-auth-mode": "header" });
    const json = (await res.json()) as { status: string; user?: { id: string } };
    return { ...json, tokens: json.status === "OK" ? readTokens(res, "header", json) : undefined };
  }
  /** A sign-in's second step with the TOTP code of `secret` now: OK when the imported device holds that secret. */
  async function totp(signedIn: { tokens?: Parameters<typeof postWithSession>[2] }, secret: string) {
    return (await postWithSession(app().url, "/totp/verify", signedIn.tokens, { totp: generateCode(secret, app().clock.now()) })).json.status as string;
  }
  return {
    cli,
    signIn,
    totp,
    /**
     * A person whose authenticator app moved in is asked for it, as one who set it up here is: the
     * password alone gives a session whose st-mfa claim is unmet (v false) and which a protected
     * route refuses with 403; a code of another secret is refused; a code of the moved secret
     * completes the sign-in (v true); the dashboard says the second factor is required.
     */
    async expectSecondFactorKept(email: string, password: string, id: string, secret: string) {
      const signedIn = await signIn(email, password);
      expect(signedIn).toMatchObject({ status: "OK", user: { id } });
      expect(jwtPayload(signedIn.tokens!.access)["st-mfa"]).toMatchObject({ v: false });
      const blocked = await postWithSession(app().url, "/totp/recovery-codes", signedIn.tokens);
      expect(blocked.res.status).toBe(403);
      expect(blocked.json).toMatchObject({ message: "invalid claim", claimValidationErrors: [{ id: "st-mfa" }] });
      expect(await totp(signedIn, "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ")).toBe("INVALID_TOTP_ERROR");
      const done = await postWithSession(app().url, "/totp/verify", signedIn.tokens, { totp: generateCode(secret, app().clock.now()) });
      expect(done.json).toEqual({ status: "OK" });
      expect(jwtPayload(done.tokens!.access)["st-mfa"]).toMatchObject({ v: true });
      expect(await requiredAtSignIn(id)).toBe("yes");
    },
    /**
     * A password moved in: a wrong one is refused and leaves the hash as it was; the right one signs
     * in as `id` (the kept id, when given) and replaces the hash by authsvc's own; it signs in again.
     */
    async expectPasswordMoved(email: string, password: string, id?: string) {
      const stored = async () => (await db().selectFrom("email_password_credentials").select("password_hash").where("email", "=", email).executeTakeFirstOrThrow()).password_hash;
      const before = await stored();
      expect(before).not.toMatch(/^bcrypt-sha384:/);
      expect((await signIn(email, password + "!")).status).toBe("WRONG_CREDENTIALS_ERROR");
      expect(await stored()).toBe(before);
      const ok = await signIn(email, password);
      expect(ok).toMatchObject({ status: "OK", ...(id ? { user: { id } } : {}) });
      expect(await stored()).toMatch(/^bcrypt-sha384:\$2b\$04\$/);
      expect((await signIn(email, password)).user?.id).toBe(ok.user!.id);
      return ok.user!.id;
    },
    roles: async (id: string) => (await db().selectFrom("user_roles").select("role").where("user_id", "=", id).orderBy("role").execute()).map((r) => r.role),
    organizations: async (id: string) => (await db().selectFrom("organization_members as m").innerJoin("organizations as o", "o.id", "m.organization_id").select(["o.name", "m.role"]).where("m.user_id", "=", id).orderBy("o.name").execute()),
    identity: (provider: string, subject: string) => db().selectFrom("third_party_identities").select(["user_id", "email"]).where("provider_id", "=", provider).where("provider_user_id", "=", subject).executeTakeFirst(),
    metadata: async (id: string) => JSON.parse((await db().selectFrom("user_metadata").select("data").where("user_id", "=", id).executeTakeFirstOrThrow()).data),
    user: (id: string) => db().selectFrom("users").select(["id", "email", "time_joined"]).where("id", "=", id).executeTakeFirst(),
    verified: async (id: string) => (await db().selectFrom("verified_emails").select("email").where("user_id", "=", id).orderBy("email").execute()).map((r) => r.email),
    /**
     * As dryRunThenImport, for a source with rows that are refused: the dry run and the import say
     * so (exit code 1, the other rows imported) and list each refusal as `where: refused: reason`,
     * its place (file and line or record) named once; --json gives the same place and reason apart.
     */
    async dryRunThenImportRefusing(args: string[], created: number, refusals: Array<[where: string, reason: string]>) {
      const dry = JSON.parse((await cli([...args, "--dry-run", "--json"])).stdout);
      expect(dry).toMatchObject({ dryRun: true, created, refused: refusals.length, conflicts: 0 });
      expect(dry.refusedRows).toEqual(refusals.map(([where, reason]) => ({ line: expect.any(Number), where, reason: expect.stringContaining(reason) })));
      const real = await cli(args);
      expect(real.code).toBe(1);
      expect(real.stdout).toContain(`${created} created, 0 skipped (duplicates), ${refusals.length} refused`);
      const listed = real.stdout.split("\n").filter((l) => l.includes(": refused: "));
      expect(listed.map((l, i) => l.startsWith(`  ${refusals[i]![0]}: refused: ${refusals[i]![1]}`) || l)).toEqual(refusals.map(() => true));
      expect(JSON.parse((await cli([...args, "--json"])).stdout)).toMatchObject({ created: 0, skipped: created, refused: refusals.length });
    },
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
