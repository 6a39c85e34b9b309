import { existsSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { backends } from "../helpers/backends.js";
import { credentials, postJson } from "../helpers/session-client.js";
import { useTempDirs } from "../helpers/temp-dirs.js";
import { createTestApp } from "../helpers/test-app.js";

const { tempDir, cleanup } = useTempDirs("sched");

describe.each(backends)("scheduled backups on $name", (backend) => {
  if (backend.name === "postgres") {
    it("are refused at start with a pointer to pg_dump", async () => {
      const t = await createTestApp({ backend, config: { backupDir: tempDir() } });
      cleanup.push(() => t.close());
      await expect(t.app.start()).rejects.toThrow(/--backup-dir: scheduled backups are for the embedded SQLite database; back PostgreSQL up with pg_dump/);
    });
    return;
  }

  it("write timestamped, checked copies into --backup-dir and keep only the newest --backup-keep", async () => {
    const dir = join(tempDir(), "backups"); // created on start
    const t = await createTestApp({ backend, config: { backupDir: dir, backupKeep: 2, backupEveryMs: 3_600_000 }, start: true });
    cleanup.push(() => t.close());
    writeFileSync(join(dir, "notes.txt"), "not ours"); // other files are left alone
    const made: string[] = [];
    for (const email of ["a@example.com", "b@example.com", "c@example.com"]) {
      await postJson(`${t.url}/auth/signup`, credentials(email));
      const r = await t.app.ops.backups()!.runOnce();
      made.push(r!.file);
      t.clock.advance(60_000);
    }
    expect(made.map((f) => f.slice(dir.length + 1))).toEqual(made.map(() => expect.stringMatching(/^authsvc-\d{8}T\d{9}Z\.db$/)));
    expect(readdirSync(dir).sort()).toEqual([...made.slice(1).map((f) => f.slice(dir.length + 1)), "notes.txt"].sort());
    expect(existsSync(made[0])).toBe(false);
    const newest = new Database(made[2], { readonly: true });
    cleanup.push(() => { newest.close(); });
    expect(newest.pragma("integrity_check", { simple: true })).toBe("ok");
    expect(newest.prepare("select count(*) from users").pluck().get()).toBe(3);
  });
});
