import { readFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.js";
import { useTempDirs } from "../helpers/temp-dirs.js";

// Restore is SQLite only; a PostgreSQL database is restored with pg_restore (backup.test.ts).
const { tempDir } = useTempDirs("restore-schema");

/** A database with one user, a backup of it, and a way to tamper with a copy of that backup. */
async function setUp(): Promise<{ database: string; backup: string; tamper(sql: string): string }> {
  const dir = tempDir();
  const database = join(dir, "auth.db");
  expect((await runCli(["create-user", "--email", "ada@example.com", "--password-stdin", "--database", database, "--create"], { stdin: "correct horse battery staple" })).code).toBe(0);
  const backup = join(dir, "b.db");
  expect((await runCli(["backup", backup, "--database", database])).code).toBe(0);
  let n = 0;
  return {
    database,
    backup,
    tamper: (sql) => {
      const file = join(dir, `tampered-${++n}.db`);
      const src = new Database(backup, { readonly: true });
      src.exec(`vacuum into '${file}'`);
      src.close();
      const db = new Database(file);
      db.exec(sql);
      db.close();
      return file;
    },
  };
}

describe("authsvc restore refuses a backup whose schema is not what the migrations make", () => {
  it("an untouched backup restores", async () => {
    const { database, backup } = await setUp();
    const r = await runCli(["restore", backup, "--database", database]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
  });

  it.each([
    ["an extra trigger (writes an old password hash back on every update)",
      "create trigger keep_hash after update on email_password_credentials begin update email_password_credentials set password_hash = 'x' where user_id = new.user_id; end",
      /extra trigger keep_hash on email_password_credentials/],
    ["an extra table", "create table notes (body text)", /extra table notes/],
    ["an extra view", "create view all_hashes as select email, password_hash from email_password_credentials", /extra view all_hashes/],
    ["an extra index", "create index users_email_x on users (email, id)", /extra index users_email_x on users/],
    ["a changed column (a column added to users)", "alter table users add column note text", /changed table users: extra column note TEXT/],
    ["a dropped index", "drop index users_time_joined_id_idx", /missing index users_time_joined_id_idx on users/],
  ])("%s: refused with the difference named, the database untouched", async (_what, sql, named) => {
    const { database, tamper } = await setUp();
    const file = tamper(sql);
    const before = readFileSync(database);
    const r = await runCli(["restore", file, "--database", database]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/does not have the schema authsvc's migrations make/);
    expect(r.stderr).toMatch(named);
    expect(readFileSync(database).equals(before)).toBe(true);
  });

  it("a table rebuilt with a changed column type is named with what was expected", async () => {
    const { database, tamper } = await setUp();
    const file = tamper(`
      pragma foreign_keys = off;
      create table rate_limits_new (bucket text not null, key text not null, count text not null, updated_at bigint not null, expires_at bigint not null, blocked_until bigint not null default 0, primary key (bucket, key));
      insert into rate_limits_new select * from rate_limits;
      drop table rate_limits;
      alter table rate_limits_new rename to rate_limits;`);
    const r = await runCli(["restore", file, "--database", database]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/changed table rate_limits: column count TEXT not null \(expected count INTEGER not null\)/);
  });
});
