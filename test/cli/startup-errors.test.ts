import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { BIN, runBin } from "../helpers/bin.js";
import { runCli } from "../helpers/cli.js";

/** Holds a loopback port the way another program would. */
function holdPort(): Promise<Server & { port: number }> {
  return new Promise((ok) => {
    const s = createServer().listen(0, "127.0.0.1", () => ok(Object.assign(s, { port: (s.address() as { port: number }).port })));
  });
}

describe("start-up and database errors: what happened, to which path or port, what to do", () => {
  const cleanup: Array<() => void> = [];
  afterEach(() => { while (cleanup.length) cleanup.pop()!(); });
  const tempDir = () => {
    const dir = mkdtempSync(join(tmpdir(), "authsvc-errors-"));
    cleanup.push(() => { chmodSync(dir, 0o755); rmSync(dir, { recursive: true, force: true }); });
    return dir;
  };

  it.each([
    ["the mail catcher's port", (port: number) => ["--port", "0", "--mail-catcher-port", String(port)], (port: number) => `the built-in mail catcher's port ${port} on 127.0.0.1 is already in use (another authsvc serve, or a mail tool such as MailHog or Mailpit?); stop the other process or choose another with --mail-catcher-port (0 picks a free one), or turn the catcher off with --no-mail-catcher`],
    ["the HTTP port (one process)", (port: number) => ["--workers", "1", "--port", String(port), "--mail-catcher-port", "0"], (port: number) => `port ${port} on 127.0.0.1 is already in use; stop the other process or choose another with --port`],
    ["the HTTP port (--workers 2: the bind is the check)", (port: number) => ["--workers", "2", "--port", String(port), "--mail-catcher-port", "0"], (port: number) => `port ${port} on 127.0.0.1 is already in use; stop the other process or choose another with --port`],
  ])("serve with %s in use: one line, no stack, and no database or signing key created", async (_, args, message) => {
    const held = await holdPort();
    cleanup.push(() => held.close());
    const dir = tempDir();
    const r = await runBin(["serve", "--database", join(dir, "authsvc.db"), ...args(held.port)]);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(`authsvc: ${message(held.port)}\n`);
    expect(readdirSync(dir)).toEqual([]);
  });

  it("a database folder that does not exist: names it and says to create it", async () => {
    const dir = tempDir();
    const r = await runCli(["migrate", "--database", join(dir, "missing", "authsvc.db")]);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(`authsvc: cannot create the SQLite database ${join(dir, "missing", "authsvc.db")}: the folder ${join(dir, "missing")} does not exist; create it (mkdir -p ${join(dir, "missing")}) or point --database (AUTHSVC_DATABASE) at another path\n`);
  });

  it("a folder this user may not write: the path and 'permission denied', not 'unable to open database file'", () => {
    const dir = tempDir();
    chmodSync(dir, 0o555);
    const db = join(dir, "authsvc.db");
    // As root every folder is writable: run the command without the capabilities that override file
    // modes (util-linux setpriv), so the folder's 0555 holds for it too. (Running it as another user
    // instead fails when the checkout itself is private to root, as a mktemp -d clone is.)
    const command = [process.execPath, BIN, "migrate", "--database", db];
    const [file, ...args] = process.getuid?.() === 0 ? ["setpriv", "--bounding-set=-dac_override,-dac_read_search", ...command] : command;
    const r = spawnSync(file, args, { encoding: "utf8", env: { PATH: process.env.PATH, AUTHSVC_LOG_LEVEL: "error" } });
    expect(r.status).toBe(1);
    expect(r.stderr).toBe(`authsvc: cannot open the SQLite database ${db}: permission denied (EACCES) on the folder ${dir} (authsvc must be able to write it, and SQLite keeps its -wal and -shm files in the folder); run authsvc as a user who may write there, or point --database (AUTHSVC_DATABASE) at another path\n`);
    expect(existsSync(db)).toBe(false);
  });

  it("a database path through a file: says which part is a file", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "notes"), "");
    const r = await runCli(["migrate", "--database", join(dir, "notes", "authsvc.db")]);
    expect(r.stderr).toBe(`authsvc: cannot create the SQLite database ${join(dir, "notes", "authsvc.db")}: ${join(dir, "notes")} is a file, not a folder; point --database (AUTHSVC_DATABASE) at another path\n`);
  });

  it("a mistyped PostgreSQL URL is refused (exit 2) and makes no file or folder named after it", async () => {
    const dir = tempDir();
    const r = spawnSync(process.execPath, [BIN, "migrate", "--database", "postgress://app@db.example.com/auth"], { cwd: dir, encoding: "utf8", env: { PATH: process.env.PATH } });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain("postgress:// is not a supported database; authsvc uses a SQLite file (a path such as ./authsvc.db) or PostgreSQL (postgres://user:password@host:5432/db); did you mean postgres://?");
    expect(readdirSync(dir)).toEqual([]);
  });
});
