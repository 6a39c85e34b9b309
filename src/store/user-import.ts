import type { Insertable, Kysely } from "kysely";
import type { DB, EventsTable, VerifiedEmailsTable } from "./schema.js";
import type { UserRow } from "./users.js";

/** Which of these user ids exist already. */
export async function findExistingUserIds(db: Kysely<DB>, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db.selectFrom("users").select("id").where("id", "in", ids).execute();
  return new Set(rows.map((r) => r.id));
}

/** The kernel's rows of an imported batch; each room's part writes its own (core/import-parts.ts). */
export interface ImportRows {
  users: UserRow[];
  verified: Insertable<VerifiedEmailsTable>[];
  events: Insertable<EventsTable>[];
}

// Rows per INSERT: keeps every statement well under SQLite's 32,766 bound parameters.
const CHUNK = 1000;

/** Inserts rows of one table as multi-row INSERTs of at most CHUNK rows (inside the caller's transaction). */
export async function insertRows<T extends keyof DB>(db: Kysely<DB>, table: T, values: Insertable<DB[T]>[]): Promise<void> {
  for (let i = 0; i < values.length; i += CHUNK) await db.insertInto(table).values(values.slice(i, i + CHUNK) as never).execute();
}

/** Inserts a batch of users with their verified addresses and events (inside the caller's transaction). */
export async function insertImportRows(db: Kysely<DB>, rows: ImportRows): Promise<void> {
  await insertRows(db, "users", rows.users);
  await insertRows(db, "verified_emails", rows.verified);
  await insertRows(db, "events", rows.events);
}
