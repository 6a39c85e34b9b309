import { CompiledQuery, PostgresAdapter, sql, type Kysely, type RawBuilder } from "kysely";
import type { DB } from "./schema.js";
import type { UserRow } from "./users.js";

/** A position in the (email, id) order of people: the first or last row of the page on screen. */
export interface EmailKey { email: string; id: string }

/**
 * The email as the search index (migration 012) holds it: byte order ("C" collation) on
 * PostgreSQL, where the default collation's order cannot serve a prefix range; SQLite's BINARY
 * default is byte order already.
 */
function emailKey(db: Kysely<DB>): RawBuilder<string> {
  return db.getExecutor().adapter instanceof PostgresAdapter ? sql<string>`email collate "C"` : sql<string>`email`;
}

/** The greatest code point: `prefix + TOP` is above every address that starts with `prefix`. */
const TOP = String.fromCodePoint(0x10ffff);

/**
 * One page of people (rows without `primary_user_id`) whose email starts with `prefix` (already
 * canonical, i.e. lower-case), in (email, id) order, after `after` or, walking back, before `before`
 * (returned in page order still). A range on the index, never a scan or OFFSET: a page costs the
 * same at a thousand users and at a million. Ask for one row more than shown to learn whether the
 * walk goes on.
 */
export async function searchPeopleByEmailPrefix(db: Kysely<DB>, opts: { prefix: string; limit: number; after?: EmailKey; before?: EmailKey }): Promise<UserRow[]> {
  const email = emailKey(db);
  let q = db.selectFrom("users").selectAll().where("primary_user_id", "is", null);
  if (opts.prefix) q = q.where(sql<boolean>`${email} >= ${opts.prefix} and ${email} < ${opts.prefix + TOP}`);
  const back = opts.before !== undefined;
  if (opts.after) q = q.where(sql<boolean>`(${email}, id) > (${opts.after.email}, ${opts.after.id})`);
  if (opts.before) q = q.where(sql<boolean>`(${email}, id) < (${opts.before.email}, ${opts.before.id})`);
  const dir = back ? sql`desc` : sql`asc`;
  const rows = await q.orderBy(sql`${email} ${dir}`).orderBy(sql`id ${dir}`).limit(opts.limit).execute();
  return back ? rows.reverse() : rows;
}

/**
 * The plan of a prefix-search page, as text, so a test can insist that the index serves it (a later
 * change must not silently turn the search into a scan of every user).
 */
export async function explainEmailPrefixSearch(db: Kysely<DB>, prefix: string, after?: EmailKey): Promise<string> {
  const email = emailKey(db);
  let q = db.selectFrom("users").selectAll().where("primary_user_id", "is", null)
    .where(sql<boolean>`${email} >= ${prefix} and ${email} < ${prefix + TOP}`);
  if (after) q = q.where(sql<boolean>`(${email}, id) > (${after.email}, ${after.id})`);
  const c = q.orderBy(sql`${email} asc`).orderBy(sql`id asc`).limit(51).compile();
  const explain = db.getExecutor().adapter instanceof PostgresAdapter ? "explain" : "explain query plan";
  const r = await db.executeQuery(CompiledQuery.raw(`${explain} ${c.sql}`, [...c.parameters]));
  return r.rows.map((row) => Object.values(row as object).join(" ")).join("\n");
}
