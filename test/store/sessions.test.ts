import { afterEach, describe, expect, it } from "vitest";
import { openStore, type Store } from "../../src/store/database.js";
import { migrateToLatest } from "../../src/store/migrator.js";
import { batchReads } from "../../src/store/read-batch.js";
import { findSessionState, insertSession, revokeSession } from "../../src/store/sessions.js";
import { insertUser } from "../../src/store/users.js";
import { backends } from "../helpers/backends.js";

describe.each(backends)("session state reads on $name", (backend) => {
  const cleanup: Array<() => Promise<void>> = [];
  afterEach(async () => { while (cleanup.length) await cleanup.pop()!(); });
  async function open(): Promise<Store> {
    const db = await backend.create();
    cleanup.push(db.drop);
    const store = openStore({ url: db.url });
    cleanup.push(() => store.close());
    await migrateToLatest(store);
    return store;
  }
  const now = 1_800_000_000_000;

  it("concurrent reads (batched into one query on PostgreSQL) each get their own session: live, revoked, verified, unknown, repeated", async () => {
    const store = await open();
    for (const id of ["u1", "u2"]) await insertUser(store.db, { id, email: `${id}@example.com`, time_joined: now, updated_at: now });
    await store.db.insertInto("verified_emails").values({ user_id: "u2", email: "u2@example.com", verified_at: now }).execute();
    for (let i = 0; i < 40; i++) {
      await insertSession(store.db, { handle: `h${i}`, user_id: i % 2 ? "u2" : "u1", created_at: now, expires_at: now + i, last_refreshed_at: null, revoked_at: null, revoke_reason: null });
    }
    await revokeSession(store.db, "h7", now, "signout");
    const handles = [...Array.from({ length: 40 }, (_, i) => `h${i}`), "h3", "h3", "missing", "h'; drop table sessions; --", "h{1,2}"];
    const rows = await Promise.all(handles.map((h) => findSessionState(store.db, h)));
    rows.forEach((row, k) => {
      const i = Number(handles[k].slice(1));
      if (!/^h\d+$/.test(handles[k])) return expect(row).toBeUndefined();
      expect(row).toEqual({ handle: handles[k], user_id: i % 2 ? "u2" : "u1", expires_at: now + i, revoked_at: i === 7 ? now : null, verified_at: i % 2 ? now : null });
    });
    // A revocation is seen by the very next read: nothing is remembered between batches.
    await revokeSession(store.db, "h3", now + 1, "signout");
    expect((await Promise.all([findSessionState(store.db, "h3"), findSessionState(store.db, "h4")])).map((r) => r?.revoked_at)).toEqual([now + 1, null]);
    // Inside a transaction the read is the transaction's own (it sees its uncommitted write).
    await store.writeTx(async (tx) => {
      await revokeSession(tx, "h4", now + 2, "signout");
      expect((await findSessionState(tx, "h4"))?.revoked_at).toBe(now + 2);
    });
  });
});

describe("batchReads", () => {
  // A stand-in database handle: batchReads only keys its batches by it and reads isTransaction.
  const db = (isTransaction = false) => ({ isTransaction }) as never;

  it("sends the reads of one event-loop turn as one call with distinct keys, and a later turn as another", async () => {
    const calls: string[][] = [];
    const read = batchReads<string, string>(async (_db, keys) => { calls.push(keys); return new Map(keys.filter((k) => k !== "none").map((k) => [k, k.toUpperCase()])); });
    const handle = db();
    expect(await Promise.all(["a", "b", "a", "none"].map((k) => read(handle, k)))).toEqual(["A", "B", "A", undefined]);
    expect(calls).toEqual([["a", "b", "none"]]);
    expect(await read(handle, "c")).toBe("C");
    expect(calls).toEqual([["a", "b", "none"], ["c"]]);
  });

  it("splits a large turn into batches of at most maxBatch keys, and a failed batch rejects its readers only", async () => {
    const calls: string[][] = [];
    const read = batchReads<string, number>(async (_db, keys) => {
      calls.push(keys);
      if (keys.includes("k0")) throw new Error("database gone");
      return new Map(keys.map((k) => [k, Number(k.slice(1))]));
    }, 4);
    const handle = db();
    const results = await Promise.allSettled(Array.from({ length: 10 }, (_, i) => read(handle, `k${i}`)));
    expect(calls.map((c) => c.length)).toEqual([4, 4, 2]);
    expect(results.slice(0, 4).every((r) => r.status === "rejected")).toBe(true);
    expect(results.slice(4).map((r) => (r as PromiseFulfilledResult<number>).value)).toEqual([4, 5, 6, 7, 8, 9]);
  });

  it("never batches a transaction's read", async () => {
    const calls: string[][] = [];
    const read = batchReads<string, string>(async (_db, keys) => { calls.push(keys); return new Map(keys.map((k) => [k, k])); });
    const tx = db(true);
    await Promise.all([read(tx, "a"), read(tx, "b")]);
    expect(calls).toEqual([["a"], ["b"]]);
  });
});
