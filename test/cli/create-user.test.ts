import { existsSync } from "node:fs";
import { beforeEach, describe, expect, it } from "vitest";
import { createApp } from "../../src/app.js";
import { testConfig } from "../../src/config.js";
import { signInWithPassword } from "../../src/methods/email-password/accounts.js";
import { backends } from "../helpers/backends.js";
import { PW, useCliDatabase } from "./fixture.js";

describe.each(backends)("authsvc create-user on $name", (backend) => {
  const t = useCliDatabase(backend);
  beforeEach(async () => { await t.create(); });

  it("creates the user with the canonical email from a password on stdin (--create: making and migrating a new database)", async () => {
    await t.create({ empty: true });
    if (backend.name === "sqlite") {
      const refused = await t.cli(["create-user", "--email", "Ada@Example.com", "--password-stdin"], { stdin: PW });
      // A typo in --database must not quietly become a new empty database.
      expect(refused.code).toBe(1);
      // The old spelling still works, with one line naming the new one.
      expect(refused.stderr).toMatch(/^authsvc: create-user is deprecated; use: authsvc users create Ada@Example\.com\nauthsvc: no database at .*test\.db; check --database .*or give --create\)\n$/);
      expect(existsSync(t.url())).toBe(false);
    }
    const r = await t.cli(["create-user", "--email", "Ada@Example.com", "--password-stdin", "--create"], { stdin: PW });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^created user [0-9a-f-]{36} <ada@example\.com>\n$/);
    expect(r.stderr).toContain("applied migration 001-initial");
    const cred = await t.store().db.selectFrom("email_password_credentials").selectAll().executeTakeFirstOrThrow();
    expect(cred.email).toBe("ada@example.com");
    expect(cred.password_hash).toMatch(/^bcrypt-sha384:/);
  });

  it("keeps the password exactly as piped, minus one trailing newline", async () => {
    expect((await t.cli(["create-user", "--email", "ada@example.com", "--password-stdin"], { stdin: `  ${PW}  \n` })).code).toBe(0);
    const app = await createApp(testConfig({ database: t.url() }));
    try {
      expect((await signInWithPassword(app.ctx, { email: "ada@example.com", password: `  ${PW}  ` })).status).toBe("OK");
      expect((await signInWithPassword(app.ctx, { email: "ada@example.com", password: PW })).status).toBe("WRONG_CREDENTIALS_ERROR");
      expect((await signInWithPassword(app.ctx, { email: "ada@example.com", password: `  ${PW}  \n` })).status).toBe("WRONG_CREDENTIALS_ERROR");
    } finally {
      await app.close();
    }
  });

  it("--password works but --password-stdin is the documented way; --verified marks the address", async () => {
    const r = await t.cli(["create-user", "--email", "bob@example.com", "--password", PW, "--verified", "--json"]);
    expect(r.code, r.stderr).toBe(0);
    const user = JSON.parse(r.stdout);
    expect(user).toMatchObject({ email: "bob@example.com", loginMethods: [{ recipeId: "emailpassword", verified: true }] });
    expect(r.stdout).not.toMatch(/hash|bcrypt|\$2[aby]\$/i);
  });

  it("refuses a duplicate clearly with exit 1", async () => {
    expect((await t.cli(["create-user", "--email", "ada@example.com", "--password-stdin"], { stdin: PW })).code).toBe(0);
    const r = await t.cli(["create-user", "--email", "ADA@example.com", "--password-stdin"], { stdin: PW });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("This email already exists");
    expect(r.stdout).toBe("");
  });

  it("refuses a password the policy rejects with exit 1, naming the rule", async () => {
    const short = await t.cli(["create-user", "--email", "ada@example.com", "--password-stdin"], { stdin: "short" });
    expect(short.code).toBe(1);
    expect(short.stderr).toContain("password: Password must be at least 8 characters long.");
    const common = await t.cli(["create-user", "--email", "ada@example.com", "--password-stdin"], { stdin: "password123" });
    expect(common.stderr).toMatch(/appeared in a data breach/);
    const own = await t.cli(["create-user", "--email", "ada@example.com", "--password-stdin"], { stdin: "ada@example.com" });
    expect(own.stderr).toMatch(/email address/);
    expect((await t.store().db.selectFrom("users").selectAll().execute()).length).toBe(0);
  });

  it("refuses a bad email with exit 1", async () => {
    const r = await t.cli(["create-user", "--email", "not-an-email", "--password-stdin"], { stdin: PW });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("email: Email is invalid");
  });

  it.each([
    [[], "", /password is required/],
    [["--password-stdin"], "", /no password on standard input/],
    [["--password-stdin"], "\n", /no password on standard input/],
    [["--password", ""], "", /password is required/],
    [["--password-stdin", "--password", PW], PW, /not both/],
  ])("a missing or doubled password is a usage error (exit 2): %j", async (extra, stdin, message) => {
    const r = await t.cli(["create-user", "--email", "ada@example.com", ...(extra as string[])], { stdin: stdin as string });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message as RegExp);
  });

  it("a missing --email is a usage error (exit 2)", async () => {
    const r = await t.cli(["create-user", "--password-stdin"], { stdin: PW });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--email/);
  });
});
