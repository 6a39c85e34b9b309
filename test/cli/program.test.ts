import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runBin } from "../helpers/bin.js";
import { runCli } from "../helpers/cli.js";

const COMMANDS = ["serve", "migrate", "create-user", "reset-password", "users", "config", "tail-mail", "mail", "keys"];

describe("authsvc program", () => {
  it("--help lists every command (exit 0)", async () => {
    const r = await runCli(["--help"]);
    expect(r.code).toBe(0);
    for (const c of COMMANDS) expect(r.stdout).toMatch(new RegExp(`^  ${c}\\b`, "m"));
  });

  it("the built bin (what npx authsvc runs) answers --help and --version", async () => {
    const help = await runBin(["--help"]);
    expect(help.code).toBe(0);
    for (const c of COMMANDS) expect(help.stdout).toMatch(new RegExp(`^  ${c}\\b`, "m"));
    const version = await runBin(["--version"]);
    const pkg = (await import("../../package.json", { with: { type: "json" } })).default;
    // The version and the commit the bundle was built from (test/global-setup.ts built it from this checkout).
    const commit = execFileSync("git", ["rev-parse", "--short", "HEAD"], { encoding: "utf8" }).trim();
    expect(version).toMatchObject({ code: 0, stdout: `authsvc ${pkg.version} (commit ${commit}, npm, Node.js ${process.version})\n` });
  });

  it("every command documents --password-stdin where it takes a password", async () => {
    for (const c of ["create-user", "reset-password"]) expect((await runCli([c, "--help"])).stdout).toContain("--password-stdin");
  });

  it("an unknown command or option is a usage error (exit 2)", async () => {
    expect((await runCli(["frobnicate"])).code).toBe(2);
    expect((await runCli(["migrate", "--frobnicate"])).code).toBe(2);
    expect((await runCli([])).code).toBe(2);
  });

  it("a database that cannot be opened or reached is one clean line naming it (exit 1), never a stack trace", async () => {
    const tail = await runCli(["tail-mail", "--database", "/nonexistent-authsvc-dir/a.db"]);
    expect(tail).toEqual({ code: 1, stdout: "", stderr: "authsvc: cannot open /nonexistent-authsvc-dir/a.db: Cannot open database because the directory does not exist\n" });
    for (const args of [["users", "list"], ["keys", "list"]]) {
      const r = await runCli([...args, "--database", "/nonexistent-authsvc-dir/a.db"]);
      expect({ args, ...r }).toEqual({ args, code: 1, stdout: "", stderr: "authsvc: no database at /nonexistent-authsvc-dir/a.db; check --database (AUTHSVC_DATABASE), or create it with `authsvc migrate --database /nonexistent-authsvc-dir/a.db` (or give --create)\n" });
    }
    // tail-mail only reads: a missing SQLite file is an error, not a new empty database.
    const dir = mkdtempSync(join(tmpdir(), "authsvc-tail-"));
    const missing = join(dir, "missing.db");
    const r = await runCli(["tail-mail", "--database", missing]);
    expect([r.code, r.stderr]).toEqual([1, `authsvc: cannot open ${missing}: unable to open database file\n`]);
    expect(existsSync(missing)).toBe(false);
    rmSync(dir, { recursive: true, force: true });
    const pg = await runCli(["tail-mail", "--database", "postgres://app:pw-xyz@127.0.0.1:1/auth"]);
    expect(pg.code).toBe(1);
    expect(pg.stderr).toMatch(/^authsvc: cannot read postgres:\/\/app:\*\*\*\*@127\.0\.0\.1:1\/auth: .*ECONNREFUSED.*\n$/);
    expect(pg.stderr).not.toContain("pw-xyz");
  });
});
