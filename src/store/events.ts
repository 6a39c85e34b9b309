import type { Kysely } from "kysely";
import { prepareQuery } from "./prepared.js";
import type { DB } from "./schema.js";

export interface NewEvent {
  at: number; type: string; userId: string | null; data?: unknown;
  /** The admin the event is about (e.g. `admin.created` from the CLI); else read from `data.source`. */
  adminId?: string | null;
}
/** Work that commits with every event, in the event's own transaction (webhooks queue their deliveries). */
export type EventHook = (tx: Kysely<DB>, e: NewEvent) => Promise<void>;

// Set once by the composition root (app.ts); a hook holds no state of an app, it works on the
// transaction it is given, so one process-wide list serves every store.
const hooks = new Map<string, EventHook>();

/** Registers (or replaces) the hook of that name; every insertEvent runs it inside its transaction. */
export function setEventHook(name: string, hook: EventHook): void {
  hooks.set(name, hook);
}

/**
 * Appends one event to the audit log (inside the caller's transaction), then runs the event hooks
 * in the same transaction: what they queue exists if and only if the event committed.
 */
export async function insertEvent(db: Kysely<DB>, e: NewEvent): Promise<void> {
  await insertEventQuery(db, e.at, e.type, e.userId, e.data === undefined ? null : JSON.stringify(e.data), e.adminId ?? readAdminSource(e.data));
  for (const hook of hooks.values()) await hook(db, e);
}

/**
 * The admin named by an event's `source` ("admin:<id>", what the dashboard passes to the core
 * functions it shares with the CLI and the admin API), so an admin's actions can be listed by
 * an indexed column instead of by parsing JSON.
 */
function readAdminSource(data: unknown): string | null {
  const source = data && typeof data === "object" ? (data as { source?: unknown }).source : undefined;
  return typeof source === "string" && source.startsWith("admin:") && source.length > 6 ? source.slice(6) : null;
}

export async function listEvents(db: Kysely<DB>, opts: { type?: string; userId?: string; adminId?: string; limit?: number } = {}) {
  let q = db.selectFrom("events").selectAll().orderBy("id");
  if (opts.adminId) q = q.where("admin_id", "=", opts.adminId);
  if (opts.type) q = q.where("type", "=", opts.type);
  if (opts.userId) q = q.where("user_id", "=", opts.userId);
  return q.limit(opts.limit ?? 1000).execute();
}

/** The newest events, newest first. */
export async function listLatestEvents(db: Kysely<DB>, limit: number) {
  return db.selectFrom("events").selectAll().orderBy("id", "desc").limit(limit).execute();
}

// Every sign-in, sign-up and refresh that records an event runs this (prepared.ts).
const insertEventQuery = prepareQuery<[number, string, string | null, string | null, string | null], unknown>(5, (db, at, type, user_id, data, admin_id) =>
  db.insertInto("events").values({ at, type, user_id, data, admin_id }));
