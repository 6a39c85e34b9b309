import type { MergePerson } from "../../core/logins.js";
import { resealTotpSecret } from "./seal.js";

/**
 * Two people joined (core/person-join.ts): the second factors of the one who leaves go to the one
 * who stays. Devices keep their secret, sealed anew for their new owner and name (a device whose
 * name the staying person uses already is renamed "name (2)"); recovery codes move; replay
 * protection and the lock-out keep the stricter of the two.
 */
export const mergeSecondFactors: MergePerson = async (db, ctx, { from, to }) => {
  let totpDevices = 0;
  const renamedDevices: string[] = [];
  const taken = new Set((await db.selectFrom("totp_devices").select("name").where("user_id", "=", to).execute()).map((r) => r.name));
  for (const d of await db.selectFrom("totp_devices").select(["name", "secret_enc"]).where("user_id", "=", from).orderBy("created_at").execute()) {
    let name = d.name;
    for (let i = 2; taken.has(name); i++) name = `${d.name} (${i})`;
    taken.add(name);
    if (name !== d.name) renamedDevices.push(d.name);
    const secret_enc = resealTotpSecret(ctx.config.secret, d.secret_enc, { userId: from, name: d.name }, { userId: to, name });
    await db.updateTable("totp_devices").set({ user_id: to, name, secret_enc }).where("user_id", "=", from).where("name", "=", d.name).execute();
    totpDevices++;
  }

  const recoveryCodes = Number((await db.updateTable("mfa_recovery_codes").set({ user_id: to }).where("user_id", "=", from).executeTakeFirst()).numUpdatedRows);

  for (const c of await db.selectFrom("totp_used_codes").selectAll().where("user_id", "=", from).execute()) {
    await db.insertInto("totp_used_codes").values({ ...c, user_id: to }).onConflict((oc) => oc.columns(["user_id", "code"]).doNothing()).execute();
  }
  await db.deleteFrom("totp_used_codes").where("user_id", "=", from).execute();
  const attempts = await db.selectFrom("totp_attempts").selectAll().where("user_id", "=", from).executeTakeFirst();
  if (attempts) {
    const mine = await db.selectFrom("totp_attempts").selectAll().where("user_id", "=", to).executeTakeFirst();
    if (mine) {
      await db.updateTable("totp_attempts").set({ failures: Math.max(mine.failures, attempts.failures), last_failure_at: Math.max(Number(mine.last_failure_at), Number(attempts.last_failure_at)) }).where("user_id", "=", to).execute();
    } else {
      await db.insertInto("totp_attempts").values({ ...attempts, user_id: to }).execute();
    }
    await db.deleteFrom("totp_attempts").where("user_id", "=", from).execute();
  }
  return { totpDevices, recoveryCodes, renamedDevices };
};
