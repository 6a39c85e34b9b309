import pg from "pg";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { backends } from "../helpers/backends.js";
import { runCli } from "../helpers/cli.js";
import { PW, useCliDatabase } from "./fixture.js";

const NO_SECRET = /hash|bcrypt|\$2[aby]\$|"password/i;

describe.each(backends)("authsvc users on $name", (backend) => {
  const t = useCliDatabase(backend);
  let adaId = "";
  beforeEach(async () => {
    await t.create();
    const r = await t.cli(["create-user", "--email", "ada@example.com", "--password-stdin", "--json"], { stdin: PW });
    adaId = JSON.parse(r.stdout).id;
    await t.cli(["create-user", "--email", "bob@example.com", "--password-stdin", "--verified"], { stdin: PW });
  });

  it("list shows every user, oldest first; --json carries no hash", async () => {
    const text = await t.cli(["users", "list"]);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(new RegExp(`^${adaId}  ada@example\\.com  unverified  emailpassword  joined \\S+\\n[0-9a-f-]{36}  bob@example\\.com  verified  emailpassword`));
    const json = await t.cli(["users", "list", "--json"]);
    expect(json.code).toBe(0);
    const list = JSON.parse(json.stdout);
    expect(list.map((u: { email: string }) => u.email)).toEqual(["ada@example.com", "bob@example.com"]);
    expect(list[0]).toMatchObject({ id: adaId, emails: ["ada@example.com"], tenantIds: ["public"], loginMethods: [{ recipeId: "emailpassword", verified: false }] });
    expect(json.stdout).not.toMatch(NO_SECRET);
  });

  it("list pages with --limit/--offset and rejects bad numbers with exit 2", async () => {
    const page = JSON.parse((await t.cli(["users", "list", "--json", "--limit", "1", "--offset", "1"])).stdout);
    expect(page.map((u: { email: string }) => u.email)).toEqual(["bob@example.com"]);
    expect((await t.cli(["users", "list", "--limit", "0"])).code).toBe(2);
    expect((await t.cli(["users", "list", "--offset", "-1"])).code).toBe(2);
    // A usage error touches nothing: on a fresh database it applies no migration.
    await t.create({ empty: true });
    expect(await t.cli(["users", "list", "--limit", "ten"])).toEqual({ code: 2, stdout: "", stderr: "authsvc: --limit and --offset take whole numbers\n" });
  });

  it("link makes bob's login part of ada (who keeps her id; show lists both methods), unlink makes bob his own user again", async () => {
    const bobId = JSON.parse((await t.cli(["users", "show", "bob@example.com", "--json"])).stdout).id;
    expect(await t.cli(["users", "link", adaId, bobId])).toMatchObject({ code: 0, stdout: `linked ${bobId} into ${adaId}\n` });
    const shown = await t.cli(["users", "show", "bob@example.com"]);
    expect(shown.stdout).toContain(`id:        ${adaId}`);
    expect(shown.stdout).toContain(`emailpassword  bob@example.com  verified  id ${bobId}`);
    expect(JSON.parse((await t.cli(["users", "list", "--json"])).stdout).map((u: { id: string; isPrimaryUser: boolean }) => [u.id, u.isPrimaryUser])).toEqual([[adaId, true]]);
    expect((await t.cli(["users", "link", adaId, bobId])).stdout).toBe(`${bobId} is already part of ${adaId}\n`);

    expect(await t.cli(["users", "unlink", bobId])).toMatchObject({ code: 0, stdout: `unlinked ${bobId}; the others are user ${adaId}\n` });
    expect(JSON.parse((await t.cli(["users", "list", "--json"])).stdout).map((u: { id: string }) => u.id)).toEqual([adaId, bobId]);
    expect(await t.cli(["users", "unlink", bobId])).toMatchObject({ code: 1, stderr: `authsvc: ${bobId} is not linked to anyone\n` });
    expect((await t.cli(["users", "link", adaId, "no-such-id"])).code).toBe(1);
  });

  it("list on an empty database says so", async () => {
    await t.create();
    const r = await t.cli(["users", "list"]);
    expect(r).toMatchObject({ code: 0, stdout: "no users\n" });
    expect(JSON.parse((await t.cli(["users", "list", "--json"])).stdout)).toEqual([]);
  });

  it.each(["email", "id"])("show finds a user by %s", async (by) => {
    const ref = by === "email" ? "ADA@Example.com" : adaId;
    const text = await t.cli(["users", "show", ref]);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain(`id:        ${adaId}`);
    expect(text.stdout).toContain("email:     ada@example.com");
    const json = await t.cli(["users", "show", ref, "--json"]);
    expect(JSON.parse(json.stdout)).toMatchObject({ id: adaId, email: "ada@example.com" });
    expect(json.stdout).not.toMatch(NO_SECRET);
  });

  it.each(["show", "delete", "verify"])("%s of an unknown user fails with exit 1", async (sub) => {
    for (const ref of ["nobody@example.com", "00000000-0000-0000-0000-000000000000"]) {
      const r = await t.cli(["users", sub, ref, ...(sub === "delete" ? ["--yes"] : [])]);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(`no user ${ref}`);
    }
  });

  it.each(["email", "id"])("verify marks the address verified by %s, and says when it already was", async (by) => {
    const ref = by === "email" ? "ada@example.com" : adaId;
    expect(await t.cli(["users", "verify", ref])).toMatchObject({ code: 0, stdout: "verified ada@example.com\n" });
    expect(await t.cli(["users", "verify", ref])).toMatchObject({ code: 0, stdout: "ada@example.com was already verified\n" });
    expect(JSON.parse((await t.cli(["users", "verify", ref, "--json"])).stdout)).toEqual({ id: adaId, email: "ada@example.com", verified: true, changed: false });
    expect(JSON.parse((await t.cli(["users", "show", adaId, "--json"])).stdout).loginMethods[0].verified).toBe(true);
  });

  it.each(["email", "id"])("delete removes the user and their credential by %s", async (by) => {
    const ref = by === "email" ? "ada@example.com" : adaId;
    const r = await t.cli(["users", "delete", ref, "--yes", "--json"]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ deleted: adaId });
    expect((await t.cli(["users", "show", adaId])).code).toBe(1);
    expect(await t.store().db.selectFrom("email_password_credentials").select("email").execute()).toEqual([{ email: "bob@example.com" }]);
    // The address is free again.
    expect((await t.cli(["create-user", "--email", "ada@example.com", "--password-stdin"], { stdin: PW })).code).toBe(0);
  });

  it("`users` without a subcommand is a usage error (exit 2)", async () => {
    const r = await t.cli(["users", "frobnicate"]);
    expect(r.code).toBe(2);
  });
});

// A read-only reporting role is a PostgreSQL setup (SQLite has no roles), so this runs with AUTHSVC_TEST_PG_URL.
describe.each(backends.filter((b) => b.name === "postgres"))("authsvc users list with a read-only role on $name", (backend) => {
  const t = useCliDatabase(backend);
  const role = `ro_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  const admin = () => { const c = new pg.Client({ connectionString: process.env.AUTHSVC_TEST_PG_URL }); return c.connect().then(() => c); };
  afterEach(async () => {
    const c = await admin();
    await c.query(`drop owned by ${role}`).catch(() => {});
    await c.query(`drop role if exists ${role}`);
    await c.end();
  });
  /** The test database URL, signed in as the read-only role (trust authentication, no password). */
  const asRole = (url: string) => { const u = new URL(url); u.username = role; u.password = ""; return u.toString(); };
  const schemaOf = (url: string) => new URL(url).searchParams.get("schema")!;

  it("lists users (no migration attempted when none is pending)", async () => {
    await t.create();
    await t.cli(["create-user", "--email", "ada@example.com", "--password-stdin"], { stdin: PW });
    const c = await admin();
    const schema = schemaOf(t.url());
    await c.query(`create role ${role} login`);
    await c.query(`grant usage on schema "${schema}" to ${role}`);
    await c.query(`grant select on all tables in schema "${schema}" to ${role}`);
    await c.end();
    const r = await runCli(["users", "list", "--database", asRole(t.url())]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("ada@example.com");
  });

  it("with migrations pending, says the role may not apply them and to run `authsvc migrate` as the owner, not 'cannot migrate'", async () => {
    await t.create({ empty: true });
    const c = await admin();
    await c.query(`create role ${role} login`);
    await c.query(`grant usage on schema "${schemaOf(t.url())}" to ${role}`);
    await c.end();
    const r = await runCli(["users", "list", "--database", asRole(t.url())]);
    expect(r.code).toBe(1);
    expect(r.stderr).not.toContain("cannot migrate");
    expect(r.stderr).toMatch(/needs \d+ migration\(s\) \(001-initial, .*\) that this database role may not apply \(permission denied for [^)]+\); run `authsvc migrate` once with the role that owns the schema, then this command runs with this role\n$/);
  });
});
