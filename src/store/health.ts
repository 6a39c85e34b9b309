import { constants } from "node:fs";
import { access, statfs } from "node:fs/promises";
import { dirname } from "node:path";
import { sql } from "kysely";
import type { Store } from "./database.js";
import { classifyOutage, type OutageKind } from "./outage.js";

/**
 * Free space below which a SQLite database's disk counts as full: a write needs room for its WAL
 * frames (a page each), and well before zero the next sign-up may fail with SQLITE_FULL.
 */
export const MIN_FREE_BYTES = 1024 * 1024;

export interface StoreProblem { kind: OutageKind; detail: string }

/**
 * Asks the database whether it can take writes right now, for /readyz and for noticing an outage's
 * end. PostgreSQL: one round trip that also tells a read-only server (a standby) apart. SQLite: a
 * read, then the file system: the folder and file writable, and at least MIN_FREE_BYTES free (a
 * full disk leaves reads working, so `select 1` alone would call it healthy).
 */
export async function probeStore(store: Store): Promise<StoreProblem | undefined> {
  try {
    if (store.dialect === "postgres") {
      const { rows } = await sql<{ ro: string }>`select current_setting('transaction_read_only') as ro`.execute(store.db);
      if (rows[0]?.ro === "on") return { kind: "read-only", detail: "the PostgreSQL server accepts no writes (a standby?)" };
      return undefined;
    }
    await sql`select 1`.execute(store.db);
  } catch (err) {
    return { kind: classifyOutage(err) ?? "unreachable", detail: (err as Error).message };
  }
  if (!store.file) return undefined;
  const dir = dirname(store.file);
  try {
    await access(dir, constants.W_OK);
    await access(store.file, constants.W_OK);
  } catch (err) {
    return { kind: "read-only", detail: `${store.file} is not writable (${(err as NodeJS.ErrnoException).code})` };
  }
  try {
    const fs = await statfs(dir);
    const free = fs.bavail * fs.bsize;
    if (free < MIN_FREE_BYTES) return { kind: "full", detail: `${free} bytes free on the disk of ${store.file}` };
  } catch (err) {
    return { kind: "io", detail: (err as Error).message };
  }
  return undefined;
}
