import { linkSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { runBin, spawnBin } from "../helpers/bin.js";

/** Waits until a child `serve` prints where it listens; returns its whole stderr so far. */
function listening(child: ReturnType<typeof spawnBin>): Promise<string> {
  let seen = "";
  return new Promise((resolve, reject) => {
    child.stderr!.on("data", (d) => { seen += d; if (/authsvc listening on/.test(seen)) resolve(seen); });
    child.on("close", (code) => reject(new Error(`serve exited (${code}) before listening:\n${seen}`)));
  });
}

/**
 * A SQLite database under another name (SQLite only: PostgreSQL has no file). A symlink opens the
 * real file (SQLite keeps the WAL beside it) and shares its one-server lock; a hard link, a second
 * name a lock beside one name cannot see, is refused.
 */
describe("serve on a SQLite database reached through a link", () => {
  const cleanup: Array<() => void | Promise<void>> = [];
  afterEach(async () => { while (cleanup.length) await cleanup.pop()!(); });
  const serve = (db: string) => ["serve", "--port", "0", "--mail-catcher-port", "0", "--workers", "1", "--database", db];

  it("opens through a symlink, and a second server through a symlink or a hard link cannot run beside the first", async () => {
    const dir = mkdtempSync(join(tmpdir(), "authsvc-links-"));
    cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
    const real = join(dir, "real.db"), link = join(dir, "link.db"), hard = join(dir, "hard.db");
    expect((await runBin(["migrate", "--database", real])).code).toBe(0);
    symlinkSync(real, link);

    // Through the symlink: it starts (the WAL is found beside the real file) and works on the real file.
    const first = spawnBin(serve(link));
    cleanup.push(async () => { if (first.exitCode === null) { first.kill("SIGTERM"); await first.result; } });
    const banner = await listening(first);
    expect(banner).toContain(`database:   ${link}`);

    // A second server on the real file's name is refused: the lock is the real file's.
    const again = await runBin(serve(real));
    expect(again.code).toBe(1);
    expect(again.stderr).toContain(`another authsvc serve is already running on ${real} (it holds ${real}-serve.lock)`);

    // A hard link is a second name the lock cannot see: refused, and nothing else was started.
    linkSync(real, hard);
    const linked = await runBin(serve(hard));
    expect(linked.code).toBe(1);
    expect(linked.stderr).toBe(`authsvc: could not start: ${hard} has 2 names (hard links): two servers could run on it through two names, each with a write-ahead log of its own. Keep one name (remove the other link; a symlink is fine) and start again\n`);

    first.kill("SIGTERM");
    expect((await first.result).code).toBe(0);
  });
});
