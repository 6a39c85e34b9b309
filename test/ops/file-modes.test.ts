import { chmodSync, existsSync, statSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.js";
import { credentials, postJson } from "../helpers/session-client.js";
import { useTempDirs } from "../helpers/temp-dirs.js";
import { createTestApp } from "../helpers/test-app.js";
import { killChild, startServe } from "./serve-child.js";

// Files and folders that hold password hashes must not follow a permissive umask. Modes are a
// SQLite-file matter (PostgreSQL keeps its data in its own server).
const { tempDir, cleanup } = useTempDirs("modes");
const modeOf = (path: string) => (statSync(path).mode & 0o777).toString(8);

describe.each([0o000, 0o022])("file modes under umask %o", (umask) => {
  let previous: number;
  beforeAll(() => { previous = process.umask(umask); });
  afterAll(() => { process.umask(previous); });

  it("serve creates the database and its -wal and -shm 0600, and does not warn about them", async () => {
    const dir = tempDir();
    const database = join(dir, "auth.db");
    const { child, port, banner } = await startServe(["--database", database], cleanup);
    expect((await postJson(`http://127.0.0.1:${port}/auth/signup`, credentials("ada@example.com"))).status).toBe(200);
    for (const f of [database, `${database}-wal`, `${database}-shm`]) expect([f, modeOf(f)]).toEqual([f, "600"]);
    expect(banner()).not.toMatch(/open to other local accounts/);
    await killChild(child, "SIGTERM");
  });

  it("backup writes 0600, also over an existing file with --force; users export --output writes 0600", async () => {
    const dir = tempDir();
    const database = join(dir, "auth.db");
    expect((await runCli(["migrate", "--database", database])).code).toBe(0);
    expect(modeOf(database)).toBe("600");
    const file = join(dir, "b.db");
    expect((await runCli(["backup", file, "--database", database])).code).toBe(0);
    expect(modeOf(file)).toBe("600");
    chmodSync(file, 0o644);
    expect((await runCli(["backup", file, "--force", "--database", database])).code).toBe(0);
    expect(modeOf(file)).toBe("600");
    const out = join(dir, "users.jsonl");
    expect((await runCli(["users", "export", "--output", out, "--database", database])).code).toBe(0);
    expect(modeOf(out)).toBe("600");
  });

  it("scheduled backups go into a new 0700 folder as 0600 files", async () => {
    const dir = join(tempDir(), "backups");
    const t = await createTestApp({ config: { backupDir: dir, backupEveryMs: 3_600_000 }, start: true });
    cleanup.push(() => t.close());
    await postJson(`${t.url}/auth/signup`, credentials("ada@example.com"));
    const r = await t.app.ops.backups()!.runOnce();
    expect(modeOf(dir)).toBe("700");
    expect(modeOf(r!.file)).toBe("600");
  });

  it("restore keeps the mode of the database it replaces, and makes a new one 0600", async () => {
    const dir = tempDir();
    const database = join(dir, "auth.db");
    expect((await runCli(["migrate", "--database", database])).code).toBe(0);
    const backup = join(dir, "b.db");
    expect((await runCli(["backup", backup, "--database", database])).code).toBe(0);
    chmodSync(backup, 0o644); // a backup copied in by some tool with a loose mode
    expect((await runCli(["restore", backup, "--database", database])).code).toBe(0);
    expect(modeOf(database)).toBe("600");
    chmodSync(database, 0o640); // the operator shares it with a group on purpose
    expect((await runCli(["restore", backup, "--database", database])).code).toBe(0);
    expect(modeOf(database)).toBe("640");
    const fresh = join(dir, "fresh.db");
    expect((await runCli(["restore", backup, "--database", fresh])).code).toBe(0);
    expect(existsSync(fresh) && modeOf(fresh)).toBe("600");
  });
});

describe("serve at start", () => {
  it("warns when the database or its folder is open to other local accounts, naming each and the fix", async () => {
    const dir = tempDir();
    const database = join(dir, "auth.db");
    expect((await runCli(["migrate", "--database", database])).code).toBe(0);
    chmodSync(database, 0o644);
    chmodSync(dir, 0o755);
    const { child, banner } = await startServe(["--database", database], cleanup);
    await killChild(child, "SIGTERM");
    expect(banner()).toContain(`${database} is 0644 (readable by others)`);
    expect(banner()).toContain(`${dir} is 0755 (readable by others)`);
    expect(banner()).toMatch(/chmod 600 on files and chmod 700 on folders/);
  });
});
