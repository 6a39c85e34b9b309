import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { sql } from "kysely";
import { isBusyError, isUniqueViolation, openStore, type Store } from "../../src/store/database.js";
import { migrateToLatest } from "../../src/store/migrator.js";
import { backends } from "../helpers/backends.js";

describe("SQLite store", () => {
  const dirs: string[] = [];
  const stores: Store[] = [];
  afterEach(async () => {
    for (const s of stores.splice(0)) await s.close();
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });
  function open(sync?: "FULL" | "NORMAL"): Store {
    const dir = mkdtempSync(join(tmpdir(), "authsvc-db-"));
    dirs.push(dir);
    const store = openStore({ url: join(dir, "a.db"), sqliteSynchronous: sync });
    stores.push(store);
    return store;
  }
  async function pragma(store: Store, name: string): Promise<unknown> {
    const r = await sql.raw<Record<string, unknown>>(`pragma ${name}`).execute(store.db);
    return Object.values(r.rows[0])[0];
  }

  it("runs with WAL, synchronous=FULL and foreign keys on (read back from the connection)", async () => {
    const store = open();
    expect(String(await pragma(store, "journal_mode")).toLowerCase()).toBe("wal");
    expect(await pragma(store, "synchronous")).toBe(2); // FULL
    expect(await pragma(store, "foreign_keys")).toBe(1);
    expect(await pragma(store, "busy_timeout")).toBe(5000);
  });

  it("uses synchronous=NORMAL only when asked to", async () => {
    expect(await pragma(open("NORMAL"), "synchronous")).toBe(1);
  });

  it("accepts a sqlite: prefix", async () => {
    const dir = mkdtempSync(join(tmpdir(), "authsvc-db-"));
    dirs.push(dir);
    const store = openStore({ url: `sqlite:${join(dir, "b.db")}` });
    stores.push(store);
    expect(store.dialect).toBe("sqlite");
    expect(await migrateToLatest(store)).not.toEqual([]);
  });

  it("fails clearly when the directory does not exist", () => {
    expect(() => openStore({ url: "/nonexistent-authsvc-dir/x.db" })).toThrow(/directory does not exist/);
  });

  it("enforces foreign keys: deleting a user cascades to their credential", async () => {
    const store = open();
    await migrateToLatest(store);
    await store.db.insertInto("users").values({ id: "u1", email: "a@example.com", time_joined: 1, updated_at: 1 }).execute();
    await expect(store.db.insertInto("sessions").values({ handle: "h", user_id: "nobody", created_at: 1, expires_at: 2, last_refreshed_at: null, revoked_at: null, revoke_reason: null }).execute()).rejects.toThrow(/FOREIGN KEY/);
    await store.db.insertInto("email_password_credentials").values({ user_id: "u1", email: "a@example.com", password_hash: "x", created_at: 1, updated_at: 1 }).execute();
    await store.db.deleteFrom("users").where("id", "=", "u1").execute();
    expect(await store.db.selectFrom("email_password_credentials").selectAll().execute()).toEqual([]);
  });
});

describe.each(backends)("store on $name", (backend) => {
  it("rolls a write transaction back on error and maps unique violations", async () => {
    const db = await backend.create();
    const store = openStore({ url: db.url });
    try {
      await migrateToLatest(store);
      await expect(store.writeTx(async (tx) => {
        await tx.insertInto("users").values({ id: "u1", email: "a@example.com", time_joined: 1, updated_at: 1 }).execute();
        throw new Error("abort");
      })).rejects.toThrow("abort");
      expect(await store.db.selectFrom("users").selectAll().execute()).toEqual([]);
      await store.writeTx((tx) => tx.insertInto("users").values({ id: "u1", email: "a@example.com", time_joined: 1, updated_at: 1 }).execute());
      const dup = await store.writeTx((tx) => tx.insertInto("users").values({ id: "u1", email: "b@example.com", time_joined: 1, updated_at: 1 }).execute()).catch((e) => e);
      expect(isUniqueViolation(dup)).toBe(true);
      // Timestamps come back as numbers on both dialects.
      expect(await store.db.selectFrom("users").select("time_joined").executeTakeFirst()).toEqual({ time_joined: 1 });
      // The audit log is append-only.
      await store.db.insertInto("events").values({ at: 1, type: "t", user_id: null, data: null }).execute();
      await expect(store.db.updateTable("events").set({ type: "x" }).execute()).rejects.toThrow(/append-only/);
      await expect(store.db.deleteFrom("events").execute()).rejects.toThrow(/append-only/);
    } finally {
      await store.close();
      await db.drop();
    }
  });

  it("reports a database held by someone else past the busy timeout as busy (503), not internal", async () => {
    const db = await backend.create();
    // SQLite: another connection holds the write lock. PostgreSQL: the only pooled connection is taken.
    const store = openStore({ url: db.url, busyTimeoutMs: 100, poolSize: 1 });
    const holder = openStore({ url: db.url });
    try {
      await migrateToLatest(store);
      let release!: () => void;
      const held = new Promise<void>((r) => { release = r; });
      let entered!: () => void;
      const holds = new Promise<void>((r) => { entered = r; });
      // Wait until the lock is really held (a write done inside the holder's transaction), not for a
      // fixed time: on a loaded machine the holder may take the lock late.
      const holding = backend.name === "sqlite"
        ? holder.writeTx(async (tx) => { await tx.insertInto("users").values({ id: "u0", email: "h@example.com", time_joined: 1, updated_at: 1 }).execute(); entered(); await held; })
        : store.db.connection().execute(async () => { entered(); await held; });
      await holds;
      const err = await store.writeTx((tx) => tx.insertInto("users").values({ id: "u1", email: "a@example.com", time_joined: 1, updated_at: 1 }).execute()).catch((e) => e);
      release();
      await holding;
      expect(err).toBeInstanceOf(Error);
      expect(isBusyError(err)).toBe(true);
      expect(isBusyError(new Error("boom"))).toBe(false);
    } finally {
      await holder.close();
      await store.close();
      await db.drop();
    }
  });
});
