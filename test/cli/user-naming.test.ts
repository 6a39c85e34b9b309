import { beforeEach, describe, expect, it } from "vitest";
import { backends } from "../helpers/backends.js";
import { PW, useCliDatabase } from "./fixture.js";

/**
 * One way to name a user in every command: the first argument, an email or an id. The options of
 * older releases (--user, --email, create-user) keep working for scripts, with a one-line notice.
 */
describe.each(backends)("naming a user in the CLI on $name", (backend) => {
  const t = useCliDatabase(backend);
  let id = "";
  beforeEach(async () => {
    await t.create();
    const made = await t.cli(["users", "create", "ada@example.com", "--password-stdin", "--verified", "--json"], { stdin: PW });
    expect(made.code, made.stderr).toBe(0);
    expect(made.stderr).toBe("");
    id = JSON.parse(made.stdout).id;
  });

  it("sessions, passkeys and reset-password take the user as their first argument, by email or id", async () => {
    for (const ref of ["ada@example.com", id]) {
      expect(await t.cli(["sessions", "list", ref])).toMatchObject({ code: 0, stdout: `no live sessions for ada@example.com (${id})\n`, stderr: "" });
      expect(await t.cli(["passkeys", "list", ref])).toMatchObject({ code: 0, stdout: `no passkeys for ada@example.com (${id})\n`, stderr: "" });
      expect(await t.cli(["sessions", "revoke", ref])).toMatchObject({ code: 0, stdout: `signed ada@example.com (${id}) out everywhere: ended nothing\n`, stderr: "" });
      const reset = await t.cli(["reset-password", ref, "--password-stdin"], { stdin: `${PW}-new` });
      expect(reset).toMatchObject({ code: 0, stderr: "" });
      expect(reset.stdout).toMatch(/^password changed for ada@example\.com/);
    }
  });

  it("the older options still work, each with a one-line notice naming the new spelling", async () => {
    const list = await t.cli(["sessions", "list", "--user", "ada@example.com"]);
    expect(list).toMatchObject({ code: 0, stdout: `no live sessions for ada@example.com (${id})\n` });
    expect(list.stderr).toBe("authsvc: --user is deprecated; name the user as the first argument: authsvc sessions list ada@example.com\n");
    const reset = await t.cli(["reset-password", "--email", "ada@example.com", "--password-stdin"], { stdin: `${PW}-2` });
    expect(reset.code).toBe(0);
    expect(reset.stderr).toBe("authsvc: --email is deprecated; name the user as the first argument: authsvc reset-password ada@example.com\n");
    const old = await t.cli(["create-user", "--email", "bob@example.com", "--password-stdin"], { stdin: PW });
    expect(old.code).toBe(0);
    expect(old.stdout).toMatch(/^created user \S+ <bob@example\.com>/);
    expect(old.stderr).toBe("authsvc: create-user is deprecated; use: authsvc users create bob@example.com\n");
    expect((await t.cli(["users", "show", "bob@example.com"])).code).toBe(0);
  });

  it("no user, or two that disagree, is a usage error (exit 2) that changes nothing", async () => {
    const none = await t.cli(["sessions", "list"]);
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/name the user, by email or id: authsvc sessions list <email-or-id>/);
    const two = await t.cli(["reset-password", "ada@example.com", "--user", id, "--password-stdin"], { stdin: "changed-by-mistake" });
    expect(two.code).toBe(2);
    expect(two.stderr).toMatch(/name one user, not "ada@example\.com" and "/);
    expect((await t.cli(["sessions", "revoke", "ada@example.com", "--session", "s"])).code).toBe(2);
    expect((await t.cli(["sessions", "revoke"])).code).toBe(2);
  });

  it("the help names the user as an argument and no longer shows the old options", async () => {
    const help = await t.cli(["sessions", "list", "--help"]);
    expect(help.stdout).toMatch(/Usage: authsvc sessions list \[options\] \[email-or-id\]/);
    expect(help.stdout).not.toMatch(/--user/);
    expect((await t.cli(["reset-password", "--help"])).stdout).not.toMatch(/--email|--user/);
  });
});
