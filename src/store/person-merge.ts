import type { Kysely } from "kysely";
import type { DB } from "./schema.js";

/**
 * The rows the kernel keeps under a person id (not under a login method's id): which second
 * factors the person must pass. When two people become one, the rooms move their own rows
 * (Room.mergePerson); events are append-only and keep the id they were written under. No rules
 * here: core/person-join.ts decides who stays.
 */

/** A factor either of them required stays required: the union. Returns how many moved. */
export async function mergeRequiredFactors(db: Kysely<DB>, from: string, to: string): Promise<number> {
  let n = 0;
  for (const f of await db.selectFrom("mfa_required_factors").selectAll().where("user_id", "=", from).execute()) {
    await db.insertInto("mfa_required_factors").values({ user_id: to, factor_id: f.factor_id, created_at: f.created_at })
      .onConflict((oc) => oc.columns(["user_id", "factor_id"]).doNothing()).execute();
    n++;
  }
  await db.deleteFrom("mfa_required_factors").where("user_id", "=", from).execute();
  return n;
}
