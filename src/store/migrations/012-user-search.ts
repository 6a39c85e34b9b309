import { sql, type Kysely } from "kysely";
import type { Dialect } from "../database.js";

/**
 * The dashboard's user search (email prefix, paged by (email, id)) at a million users: one index
 * over people only (linked login methods are listed with their person), in the order the pages walk,
 * so a search reads just the rows it shows whatever the table's size. On PostgreSQL the key is the
 * email in the "C" collation: the default collation's comparisons cannot serve a prefix range from a
 * plain btree, byte order can (emails are stored lower-case, so byte order loses nothing).
 */
export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  if (dialect === "postgres") {
    await sql`create index if not exists users_person_email_idx on users ((email collate "C"), id) where primary_user_id is null`.execute(db);
    return;
  }
  await sql`create index if not exists users_person_email_idx on users (email, id) where primary_user_id is null`.execute(db);
}
