import { mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { openStore, type Store } from "../../src/store/database.js";
import { migrateToLatest } from "../../src/store/migrator.js";
import { WalSync } from "../../src/store/wal-sync.js";
import { spawnBin } from "../helpers/bin.js";
import { signUpUntilKilled } from "../helpers/signup-flood.js";

// SQLite commits on the main thread's connection and waits for a shared fdatasync of the WAL off
// the event loop (src/store/wal-sync.ts). What a caller must be able to rely on: an acknowledged
// write is committed (durable, visible to any other connection), a failed transaction takes nothing
// else with it, and checkpoints by anyone do not get in the way.
describe("SQLite durable commits", () => {
  const dirs: string[] = [];
  const stores: Store[] = [];
  afterEach(async () => {
    for (const s of stores.splice(0)) await s.close();
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });
  async function open(): Promise<{ store: Store; file: string }> {
    const dir = mkdtempSync(join(tmpdir(), "authsvc-durable-"));
    dirs.push(dir);
    const file = join(dir, "w.db");
    const store = openStore({ url: file });
    stores.push(store);
    await migrateToLatest(store);
    return { store, file };
  }
  const user = (id: string) => ({ id, email: `${id}@example.com`, time_joined: 1, updated_at: 1 });

  it("acknowledges each of 60 concurrent transactions only once another connection can read it", async () => {
    const { store, file } = await open();
    const other = new Database(file, { readonly: true });
    try {
      const seen = await Promise.all(Array.from({ length: 60 }, (_, i) =>
        store.writeTx((tx) => tx.insertInto("users").values(user(`u${i}`)).execute())
          .then(() => other.prepare("select count(*) as n from users where id = ?").get(`u${i}`) as { n: number })));
      expect(seen.map((r) => r.n)).toEqual(Array.from({ length: 60 }, () => 1));
    } finally {
      other.close();
    }
  });

  it("ends its sync thread after a while without commits, and the next commit is still made durable", async () => {
    const dir = mkdtempSync(join(tmpdir(), "authsvc-durable-"));
    dirs.push(dir);
    writeFileSync(join(dir, "w.db-wal"), "frames");
    const sync = new WalSync(join(dir, "w.db-wal"), 150);
    try {
      expect(sync.threadRunning).toBe(false); // nothing committed yet: no thread
      await Promise.all([sync.afterCommit(), sync.afterCommit()]);
      expect(sync.threadRunning).toBe(true);
      // Commits keep it: each sync re-arms the idle timer.
      for (let i = 0; i < 4; i++) { await new Promise((r) => setTimeout(r, 60)); await sync.afterCommit(); }
      expect(sync.threadRunning).toBe(true);
      await new Promise((r) => setTimeout(r, 400));
      expect(sync.threadRunning).toBe(false);
      await sync.afterCommit(); // a new thread, not a failure
      expect(sync.threadRunning).toBe(true);
    } finally {
      await sync.close();
    }
  });

  it("rolls back only the failing transaction of a concurrent batch", async () => {
    const { store } = await open();
    const results = await Promise.allSettled(Array.from({ length: 20 }, (_, i) =>
      store.writeTx(async (tx) => {
        await tx.insertInto("users").values(user(`u${i}`)).execute();
        if (i === 7) throw new Error("abort 7");
      })));
    expect(results.filter((r) => r.status === "rejected").map((r) => (r as PromiseRejectedResult).reason.message)).toEqual(["abort 7"]);
    const ids = (await store.db.selectFrom("users").select("id").execute()).map((r) => r.id).sort();
    expect(ids).toEqual(Array.from({ length: 20 }, (_, i) => `u${i}`).filter((id) => id !== "u7").sort());
  });

  it("runs single writes outside a transaction and schema statements alike", async () => {
    const { store } = await open();
    await Promise.all(Array.from({ length: 10 }, (_, i) => store.db.insertInto("users").values(user(`s${i}`)).execute()));
    const r = await store.db.updateTable("users").set({ updated_at: 2 }).where("id", "like", "s%").executeTakeFirst();
    expect(Number(r.numUpdatedRows)).toBe(10);
    await store.db.schema.createTable("scratch").addColumn("x", "text").execute();
    expect(await store.db.selectFrom("users").select("id").where("updated_at", "=", 2).execute()).toHaveLength(10);
  });

  it("keeps committing while another connection checkpoints and truncates the WAL in between", async () => {
    const { store, file } = await open();
    const other = new Database(file);
    try {
      for (let round = 0; round < 5; round++) {
        await Promise.all(Array.from({ length: 10 }, (_, i) => store.writeTx((tx) => tx.insertInto("users").values(user(`r${round}-${i}`)).execute())));
        other.pragma("wal_checkpoint(TRUNCATE)");
      }
      await store.db.insertInto("users").values(user("last")).execute();
      expect((other.prepare("select count(*) as n from users").get() as { n: number }).n).toBe(51);
    } finally {
      other.close();
    }
  });

  it("copies the WAL into the database file in the background as commits accumulate", async () => {
    const { store, file } = await open();
    const other = new Database(file);
    try {
      other.pragma("wal_checkpoint(TRUNCATE)");
      const before = statSync(file).size;
      for (let i = 0; i < 120; i++) await store.db.insertInto("users").values({ ...user(`c${i}`), email: `c${i}-${"x".repeat(400)}@example.com` }).execute();
      // Nobody but the store's own checkpoint thread copies pages into the file.
      for (let tries = 0; statSync(file).size === before && tries < 100; tries++) await new Promise((r) => setTimeout(r, 50));
      expect(statSync(file).size).toBeGreaterThan(before);
    } finally {
      other.close();
    }
  });

  it("keeps every sign-up the server answered when the server is killed with SIGKILL", async () => {
    const dir = mkdtempSync(join(tmpdir(), "authsvc-durable-"));
    dirs.push(dir);
    const file = join(dir, "kill.db");
    // One process (the same with a primary and two workers: test/cli/serve-workers.test.ts).
    const child = spawnBin(["serve", "--workers", "1", "--port", "0", "--no-mail-catcher", "--no-rate-limits", "--database", file], { env: { AUTHSVC_LOG_LEVEL: "info" } });
    let stderr = "";
    child.stderr!.on("data", (d) => { stderr += d; });
    try {
      const port = await new Promise<number>((resolve, reject) => {
        child.stderr!.on("data", () => { const m = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(stderr); if (m) resolve(Number(m[1])); });
        child.on("exit", () => reject(new Error(stderr)));
      });
      // Eight clients sign up as fast as they can (one IP: rate limits off); the server is killed mid-stream.
      const acked = await signUpUntilKilled(port, 40, () => child.kill("SIGKILL"));
      await child.result;
      const db = new Database(file, { readonly: true });
      const stored = new Set((db.prepare("select email from users").all() as { email: string }[]).map((r) => r.email));
      db.close();
      expect(acked.length).toBeGreaterThanOrEqual(40);
      expect(acked.filter((e) => !stored.has(e))).toEqual([]);
    } finally {
      if (child.exitCode === null) child.kill("SIGKILL");
    }
  });
});
