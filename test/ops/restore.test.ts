import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { migrations } from "../../src/store/migrations/index.js";
import { runCli } from "../helpers/cli.js";
import { credentials, postJson } from "../helpers/session-client.js";
import { useTempDirs } from "../helpers/temp-dirs.js";
import { createTestApp } from "../helpers/test-app.js";
import { killChild, startServe } from "./serve-child.js";

// Restore is SQLite only (PostgreSQL's exit 2 is covered in backup.test.ts).
const { tempDir, cleanup } = useTempDirs("restore");

const emailsIn = (file: string): string[] => {
  const db = new Database(file, { readonly: true });
  try { return db.prepare("select email from users order by email").pluck().all() as string[]; } finally { db.close(); }
};

describe("authsvc restore (SQLite)", () => {
  it("round-trips: the database is back as it was at the backup, and a server started on it serves those users", async () => {
    const dir = tempDir();
    const database = join(dir, "auth.db");
    const t = await createTestApp({ config: { database } });
    let open = true;
    cleanup.push(async () => { if (open) await t.close(); });
    await postJson(`${t.url}/auth/signup`, credentials("ada@example.com"));
    expect((await runCli(["backup", join(dir, "b.db"), "--database", database])).code).toBe(0);
    await postJson(`${t.url}/auth/signup`, credentials("bob@example.com"));
    // While the (in-process) server has the database open, restore is refused and changes nothing.
    const refused = await runCli(["restore", join(dir, "b.db"), "--database", database]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/in use by another process/);
    expect(emailsIn(database)).toEqual(["ada@example.com", "bob@example.com"]);
    await t.app.close();
    open = false;

    const r = await runCli(["restore", join(dir, "b.db"), "--database", database, "--json"]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ tables: { users: 1 }, migrations: migrations.map((m) => m.name) });
    expect(emailsIn(database)).toEqual(["ada@example.com"]);
    expect(existsSync(`${database}-wal`)).toBe(false);
    expect((await runCli(["users", "show", "ada@example.com", "--database", database])).code).toBe(0);
  });

  it("refuses while the built server holds the database, and goes ahead once that server was killed with SIGKILL", async () => {
    const dir = tempDir();
    const database = join(dir, "auth.db");
    expect((await runCli(["migrate", "--database", database])).code).toBe(0);
    expect((await runCli(["backup", join(dir, "b.db"), "--database", database])).code).toBe(0);
    const { child, port } = await startServe(["--database", database], cleanup);
    await postJson(`http://127.0.0.1:${port}/auth/signup`, credentials("late@example.com"));
    const refused = await runCli(["restore", join(dir, "b.db"), "--database", database]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/is in use by another process \(is `authsvc serve` running\?\)/);
    await killChild(child, "SIGKILL"); // no clean shutdown: the lock must still go with the process
    const r = await runCli(["restore", join(dir, "b.db"), "--database", database]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/restored .*auth\.db from .*b\.db: .*users 0.*integrity_check ok; migrations 001-initial/);
    expect(emailsIn(database)).toEqual([]);
  });

  it("refuses a file that is not a database or not an authsvc database, leaving the current database untouched", async () => {
    const dir = tempDir();
    const database = join(dir, "auth.db");
    expect((await runCli(["create-user", "--email", "ada@example.com", "--password-stdin", "--database", database, "--create"], { stdin: "correct horse battery staple" })).code).toBe(0);
    const before = readFileSync(database);
    writeFileSync(join(dir, "junk.db"), "this is not a database at all, not even close to one".repeat(100));
    const junk = await runCli(["restore", join(dir, "junk.db"), "--database", database]);
    expect(junk.code).toBe(1);
    expect(junk.stderr).toMatch(/not a (usable )?database/);
    const other = new Database(join(dir, "other.db"));
    other.exec("create table notes (x)");
    other.close();
    const foreign = await runCli(["restore", join(dir, "other.db"), "--database", database]);
    expect(foreign.code).toBe(1);
    expect(foreign.stderr).toMatch(/not an authsvc database/);
    expect(readFileSync(database).equals(before)).toBe(true);
    expect(emailsIn(database)).toEqual(["ada@example.com"]);
    const missing = await runCli(["restore", join(dir, "nope.db"), "--database", database]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/no backup at/);
  });
});
