import type { MergePerson } from "../core/logins.js";

/** Two people joined (core/person-join.ts): the one who stays holds the roles of both. */
export const mergeRoles: MergePerson = async (db, _ctx, { from, to }) => {
  let roles = 0;
  for (const r of await db.selectFrom("user_roles").selectAll().where("user_id", "=", from).execute()) {
    await db.insertInto("user_roles").values({ ...r, user_id: to }).onConflict((oc) => oc.columns(["user_id", "role"]).doNothing()).execute();
    roles++;
  }
  await db.deleteFrom("user_roles").where("user_id", "=", from).execute();
  return { roles };
};
