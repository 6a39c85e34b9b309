import type { Kysely, Selectable } from "kysely";
import type { DB } from "../../store/schema.js";
import type { AdminSessionsTable, AdminsTable } from "./tables.js";

/** The admins and admin_sessions tables (migration 011), and the audit events that name an admin: rows in, rows out, no rules. */

export type AdminRow = Selectable<AdminsTable>;
export type AdminSessionRow = Selectable<AdminSessionsTable>;

const toAdmin = (r: AdminRow): AdminRow => ({ ...r, totp_last_step: Number(r.totp_last_step), created_at: Number(r.created_at), updated_at: Number(r.updated_at) });
const toSession = (r: AdminSessionRow): AdminSessionRow => ({ ...r, created_at: Number(r.created_at), last_seen_at: Number(r.last_seen_at), expires_at: Number(r.expires_at) });

export async function findAdminByEmail(db: Kysely<DB>, email: string): Promise<AdminRow | undefined> {
  const r = await db.selectFrom("admins").selectAll().where("email", "=", email).executeTakeFirst();
  return r && toAdmin(r);
}

export async function findAdminById(db: Kysely<DB>, id: string): Promise<AdminRow | undefined> {
  const r = await db.selectFrom("admins").selectAll().where("id", "=", id).executeTakeFirst();
  return r && toAdmin(r);
}

/** Every admin, oldest first. */
export async function listAdminRows(db: Kysely<DB>): Promise<AdminRow[]> {
  return (await db.selectFrom("admins").selectAll().orderBy("created_at").orderBy("email").execute()).map(toAdmin);
}

export async function countAdmins(db: Kysely<DB>): Promise<number> {
  const r = await db.selectFrom("admins").select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow();
  return Number(r.n);
}

export async function insertAdmin(db: Kysely<DB>, row: AdminRow): Promise<void> {
  await db.insertInto("admins").values(row).execute();
}

export async function updateAdmin(db: Kysely<DB>, id: string, set: Partial<Pick<AdminRow, "password_hash" | "totp_secret_enc" | "totp_last_step" | "updated_at">>): Promise<boolean> {
  const r = await db.updateTable("admins").set(set).where("id", "=", id).executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/**
 * Moves the admin's last accepted TOTP step forward to `step`; false when a code of that step or a
 * later one was already accepted (a replay). One conditional update, so two concurrent sign-ins
 * with one code cannot both win.
 */
export async function advanceTotpStep(db: Kysely<DB>, id: string, step: number): Promise<boolean> {
  const r = await db.updateTable("admins").set({ totp_last_step: step }).where("id", "=", id).where("totp_last_step", "<", step).executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

export async function deleteAdmin(db: Kysely<DB>, id: string): Promise<boolean> {
  const r = await db.deleteFrom("admins").where("id", "=", id).executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}

export async function insertAdminSession(db: Kysely<DB>, row: AdminSessionRow): Promise<void> {
  await db.insertInto("admin_sessions").values(row).execute();
}

export async function findAdminSession(db: Kysely<DB>, tokenHash: string): Promise<AdminSessionRow | undefined> {
  const r = await db.selectFrom("admin_sessions").selectAll().where("token_hash", "=", tokenHash).executeTakeFirst();
  return r && toSession(r);
}

export async function touchAdminSession(db: Kysely<DB>, tokenHash: string, now: number): Promise<void> {
  await db.updateTable("admin_sessions").set({ last_seen_at: now }).where("token_hash", "=", tokenHash).execute();
}

export async function deleteAdminSession(db: Kysely<DB>, tokenHash: string): Promise<boolean> {
  const r = await db.deleteFrom("admin_sessions").where("token_hash", "=", tokenHash).executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}

/** Ends every session of an admin; returns how many there were. */
export async function deleteAdminSessions(db: Kysely<DB>, adminId: string): Promise<number> {
  const r = await db.deleteFrom("admin_sessions").where("admin_id", "=", adminId).executeTakeFirst();
  return Number(r.numDeletedRows);
}

/** Live sessions per admin (for `admins list`). */
export async function countLiveSessions(db: Kysely<DB>, now: number): Promise<Map<string, number>> {
  const rows = await db.selectFrom("admin_sessions").select(["admin_id", (eb) => eb.fn.countAll<number>().as("n")]).where("expires_at", ">", now).groupBy("admin_id").execute();
  return new Map(rows.map((r) => [r.admin_id, Number(r.n)]));
}

/** An admin's live sessions, newest first. */
export async function listAdminSessionRows(db: Kysely<DB>, adminId: string, now: number): Promise<AdminSessionRow[]> {
  return (await db.selectFrom("admin_sessions").selectAll().where("admin_id", "=", adminId).where("expires_at", ">", now).orderBy("created_at", "desc").execute()).map(toSession);
}

/** Ends every session of an admin but one; returns how many ended. */
export async function deleteOtherAdminSessions(db: Kysely<DB>, adminId: string, keepHash: string): Promise<number> {
  const r = await db.deleteFrom("admin_sessions").where("admin_id", "=", adminId).where("token_hash", "!=", keepHash).executeTakeFirst();
  return Number(r.numDeletedRows);
}

/**
 * The newest events that name an admin, newest first. One index range per admin (events_admin_idx
 * is (admin_id, id); admins are few), then merged: "admin_id is not null order by id desc" would
 * walk the whole audit log backwards when admin actions are rare.
 */
export async function listRecentAdminEvents(db: Kysely<DB>, limit: number): Promise<Array<{ id: number; at: number; type: string; user_id: string | null; data: string | null; admin_id: string; email: string }>> {
  const admins = await db.selectFrom("admins").select(["id", "email"]).execute();
  const lists = await Promise.all(admins.map(async (a) => (await db.selectFrom("events").select(["id", "at", "type", "user_id", "data"])
    .where("admin_id", "=", a.id).orderBy("id", "desc").limit(limit).execute()).map((e) => ({ ...e, id: Number(e.id), at: Number(e.at), admin_id: a.id, email: a.email }))));
  return lists.flat().sort((x, y) => y.id - x.id).slice(0, limit);
}
