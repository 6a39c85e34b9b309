import type { Kysely } from "kysely";
import type { DB } from "./schema.js";

/**
 * The rows a person owns under their person id (not under a login method's id): second factors and
 * their requirement, recovery codes, the lock-out counter, roles, metadata. When two people become
 * one, every one of them moves to the person who stays; nothing is dropped and no requirement gets
 * weaker. Events are append-only: they keep the id they were written under, and the join's own
 * event names both. No rules here: core/person-join.ts decides who stays.
 */

/** What moved, for the `user.linked` event. */
export interface MergedData {
  requiredFactors: number;
  totpDevices: number;
  recoveryCodes: number;
  roles: number;
  metadataKeys: number;
  /** Devices renamed because the staying person had one of the same name. */
  renamedDevices: string[];
  /** A pending self-service deletion of the person who leaves, cancelled (it would delete both). */
  cancelledDeletion: boolean;
}

/** Seals a TOTP secret sealed for one (owner, name) anew for another. */
export type ResealSecret = (sealed: string, was: { userId: string; name: string }, now: { userId: string; name: string }) => string;

/** Moves every person-owned row of `from` to `to` (inside the caller's transaction). */
export async function mergePersonData(db: Kysely<DB>, from: string, to: string, now: number, reseal: ResealSecret): Promise<MergedData> {
  const out: MergedData = { requiredFactors: 0, totpDevices: 0, recoveryCodes: 0, roles: 0, metadataKeys: 0, renamedDevices: [], cancelledDeletion: false };

  // A factor either of them required stays required: the union.
  for (const f of await db.selectFrom("mfa_required_factors").selectAll().where("user_id", "=", from).execute()) {
    await db.insertInto("mfa_required_factors").values({ user_id: to, factor_id: f.factor_id, created_at: f.created_at })
      .onConflict((oc) => oc.columns(["user_id", "factor_id"]).doNothing()).execute();
    out.requiredFactors++;
  }
  await db.deleteFrom("mfa_required_factors").where("user_id", "=", from).execute();

  // Devices keep their secret; it is sealed with its owner and name, so `reseal` seals it anew.
  const taken = new Set((await db.selectFrom("totp_devices").select("name").where("user_id", "=", to).execute()).map((r) => r.name));
  for (const d of await db.selectFrom("totp_devices").select(["name", "secret_enc"]).where("user_id", "=", from).orderBy("created_at").execute()) {
    let name = d.name;
    for (let i = 2; taken.has(name); i++) name = `${d.name} (${i})`;
    taken.add(name);
    if (name !== d.name) out.renamedDevices.push(d.name);
    const secret_enc = reseal(d.secret_enc, { userId: from, name: d.name }, { userId: to, name });
    await db.updateTable("totp_devices").set({ user_id: to, name, secret_enc }).where("user_id", "=", from).where("name", "=", d.name).execute();
    out.totpDevices++;
  }

  out.recoveryCodes = Number((await db.updateTable("mfa_recovery_codes").set({ user_id: to }).where("user_id", "=", from).executeTakeFirst()).numUpdatedRows);

  // Replay protection and the lock-out: the stricter of the two.
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

  for (const r of await db.selectFrom("user_roles").selectAll().where("user_id", "=", from).execute()) {
    await db.insertInto("user_roles").values({ ...r, user_id: to }).onConflict((oc) => oc.columns(["user_id", "role"]).doNothing()).execute();
    out.roles++;
  }
  await db.deleteFrom("user_roles").where("user_id", "=", from).execute();

  out.metadataKeys = await mergeMetadata(db, from, to, now);

  out.cancelledDeletion = Number((await db.deleteFrom("account_deletions").where("user_id", "=", from).executeTakeFirst()).numDeletedRows) > 0;
  return out;
}

/** The app's metadata of both: the staying person's keys win, the other's keys are added. */
async function mergeMetadata(db: Kysely<DB>, from: string, to: string, now: number): Promise<number> {
  const theirs = await db.selectFrom("user_metadata").select("data").where("user_id", "=", from).executeTakeFirst();
  if (!theirs) return 0;
  const mine = await db.selectFrom("user_metadata").select("data").where("user_id", "=", to).executeTakeFirst();
  const a = JSON.parse(theirs.data) as Record<string, unknown>;
  const b = mine ? (JSON.parse(mine.data) as Record<string, unknown>) : {};
  const added = Object.keys(a).filter((k) => !(k in b));
  const data = JSON.stringify({ ...a, ...b });
  if (mine) await db.updateTable("user_metadata").set({ data, updated_at: now }).where("user_id", "=", to).execute();
  else await db.insertInto("user_metadata").values({ user_id: to, data, updated_at: now }).execute();
  await db.deleteFrom("user_metadata").where("user_id", "=", from).execute();
  return added.length;
}

/** Removes every passkey of passkey login `userId` but `keepId`; returns the removed ids. */
export async function deletePasskeysExcept(db: Kysely<DB>, userId: string, keepId: string | undefined): Promise<string[]> {
  let q = db.selectFrom("webauthn_credentials").select("id").where("user_id", "=", userId);
  if (keepId !== undefined) q = q.where("id", "!=", keepId);
  const ids = (await q.execute()).map((r) => r.id);
  if (ids.length > 0) await db.deleteFrom("webauthn_credentials").where("id", "in", ids).execute();
  return ids;
}
