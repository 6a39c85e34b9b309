import type { Kysely } from "kysely";
import type { DB } from "./schema.js";

/** Stores (or replaces) the locale a person reads their mail in. */
export async function setPersonLocale(db: Kysely<DB>, personId: string, locale: string, now: number): Promise<void> {
  await db.insertInto("person_locales").values({ user_id: personId, locale, updated_at: now })
    .onConflict((oc) => oc.column("user_id").doUpdateSet({ locale, updated_at: now }))
    .execute();
}

/** A person's stored locale, if any. */
export async function findPersonLocale(db: Kysely<DB>, personId: string): Promise<string | undefined> {
  return (await db.selectFrom("person_locales").select("locale").where("user_id", "=", personId).executeTakeFirst())?.locale;
}

/**
 * The stored locale of whoever has `email` as their current address (the person behind any of
 * their logins: a login's own row, or its primary user's), the most recently set first.
 */
export async function findLocaleByEmail(db: Kysely<DB>, email: string): Promise<string | undefined> {
  const row = await db.selectFrom("users as u")
    .innerJoin("person_locales as l", (j) => j.on((eb) => eb.or([eb("l.user_id", "=", eb.ref("u.id")), eb("l.user_id", "=", eb.ref("u.primary_user_id"))])))
    .select("l.locale").where("u.email", "=", email).orderBy("l.updated_at", "desc").limit(1).executeTakeFirst();
  return row?.locale;
}
