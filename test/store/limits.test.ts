import { sql } from "kysely";
import { afterEach, describe, expect, it } from "vitest";
import { openStore, type Store } from "../../src/store/database.js";
import { admitAttempt, deleteExpiredCounters, findCounter, hitWindow } from "../../src/store/limits.js";
import { migrateToLatest } from "../../src/store/migrator.js";
import { backends } from "../helpers/backends.js";

describe.each(backends)("rate-limit counters on $name", (backend) => {
  const cleanup: Array<() => Promise<void>> = [];
  afterEach(async () => { while (cleanup.length) await cleanup.pop()!(); });
  async function open(url?: string): Promise<{ store: Store; url: string }> {
    let u = url;
    if (!u) {
      const db = await backend.create();
      cleanup.push(db.drop);
      u = db.url;
    }
    const store = openStore({ url: u });
    cleanup.push(() => store.close());
    await migrateToLatest(store);
    return { store, url: u };
  }
  const now = 1_800_000_000_000; // epoch ms past 2^31: must survive PostgreSQL's parameter typing

  it("hitWindow: 100 concurrent hits from two connections get the counts 1..100 exactly once; a closed window starts again", async () => {
    const a = await open();
    const b = await open(a.url);
    const hits = await Promise.all(Array.from({ length: 100 }, (_, i) => hitWindow((i % 2 ? a : b).store, { bucket: "x", key: "k", now, windowMs: 60_000 })));
    expect(hits.map((h) => h.count).sort((p, q) => p - q)).toEqual(Array.from({ length: 100 }, (_, i) => i + 1));
    expect(new Set(hits.map((h) => h.expiresAt))).toEqual(new Set([now + 60_000]));
    expect(await hitWindow(a.store, { bucket: "x", key: "k", now: now + 60_000, windowMs: 60_000 })).toEqual({ count: 1, expiresAt: now + 120_000 });
    // The counter writes skip the flush; everything else keeps synchronous=FULL (2) on SQLite.
    if (backend.name === "sqlite") expect((await sql<{ synchronous: number }>`pragma synchronous`.execute(a.store.db)).rows[0].synchronous).toBe(2);
  });

  it("admitAttempt: counts before the outcome, refuses while blocked, and of 50 concurrent attempts admits only up to the block", async () => {
    const { store } = await open();
    const blockMs = [0, 0, 5000, 3_600_000];
    const results = await Promise.all(Array.from({ length: 50 }, () => admitAttempt(store, { bucket: "f", key: "k", now, windowMs: 3_600_000, blockMs })));
    // The third admitted attempt sets a 5 s block: every later one is refused.
    expect(results.filter(Boolean).map((r) => r!.count).sort()).toEqual([1, 2, 3]);
    expect(await findCounter(store.db, "f", "k")).toMatchObject({ count: 3, blocked_until: now + 5000 });
    expect(await admitAttempt(store, { bucket: "f", key: "k", now: now + 4999, windowMs: 3_600_000, blockMs })).toBeUndefined();
    expect(await admitAttempt(store, { bucket: "f", key: "k", now: now + 5000, windowMs: 3_600_000, blockMs })).toEqual({ count: 4 });
    expect(await findCounter(store.db, "f", "k")).toMatchObject({ blocked_until: now + 5000 + 3_600_000 });
  });

  it("admitAttempt: a zero wait blocks nobody, not even a request stamped a moment earlier (or by a host whose clock is behind)", async () => {
    const { store } = await open();
    const blockMs = [0, 0, 0, 5000];
    expect(await admitAttempt(store, { bucket: "f", key: "k", now, windowMs: 3_600_000, blockMs })).toEqual({ count: 1 });
    expect(await admitAttempt(store, { bucket: "f", key: "k", now: now - 50, windowMs: 3_600_000, blockMs })).toEqual({ count: 2 });
    expect(await findCounter(store.db, "f", "k")).toMatchObject({ blocked_until: 0 });
  });

  it("deleteExpiredCounters keeps rows whose window or block is still running", async () => {
    const { store } = await open();
    await hitWindow(store, { bucket: "a", key: "old", now, windowMs: 1000 });
    await hitWindow(store, { bucket: "a", key: "live", now, windowMs: 10_000 });
    await admitAttempt(store, { bucket: "f", key: "blocked", now, windowMs: 1000, blockMs: [20_000] });
    expect(await deleteExpiredCounters(store.db, now + 5000)).toBe(1);
    expect(await findCounter(store.db, "a", "old")).toBeUndefined();
    expect(await findCounter(store.db, "f", "blocked")).toBeDefined();
  });
});
