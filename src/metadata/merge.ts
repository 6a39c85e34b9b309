import type { MergePerson } from "../core/logins.js";

/** Two people joined (core/person-join.ts): the staying person's metadata keys win, the other's are added. */
export const mergeMetadata: MergePerson = async (db, _ctx, { from, to, now }) => {
  const theirs = await db.selectFrom("user_metadata").select("data").where("user_id", "=", from).executeTakeFirst();
  if (!theirs) return { metadataKeys: 0 };
  const mine = await db.selectFrom("user_metadata").select("data").where("user_id", "=", to).executeTakeFirst();
  const a = JSON.parse(theirs.data) as Record<string, unknown>;
  const b = mine ? (JSON.parse(mine.data) as Record<string, unknown>) : {};
  const added = Object.keys(a).filter((k) => !(k in b));
  const data = JSON.stringify({ ...a, ...b });
  if (mine) await db.updateTable("user_metadata").set({ data, updated_at: now }).where("user_id", "=", to).execute();
  else await db.insertInto("user_metadata").values({ user_id: to, data, updated_at: now }).execute();
  await db.deleteFrom("user_metadata").where("user_id", "=", from).execute();
  return { metadataKeys: added.length };
};
