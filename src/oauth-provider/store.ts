import type { Kysely } from "kysely";
import type { DB } from "../store/schema.js";
import type { OauthClientRow, OauthClientsTable, OauthRecordRow, OauthRecordsTable, OauthResourceRow, OauthResourcesTable, OauthTables } from "./schema.js";

/** The provider's repositories: rows in, rows out, no rules (those are in adapter.ts and clients.ts). */
const t = (db: Kysely<DB>) => db.withTables<OauthTables>();

export async function findRecord(db: Kysely<DB>, model: string, id: string): Promise<OauthRecordRow | undefined> {
  return t(db).selectFrom("oauth_records").selectAll().where("model", "=", model).where("id", "=", id).executeTakeFirst();
}

export async function findRecordBy(db: Kysely<DB>, model: string, column: "uid" | "user_code", value: string): Promise<OauthRecordRow | undefined> {
  return t(db).selectFrom("oauth_records").selectAll().where("model", "=", model).where(column, "=", value).executeTakeFirst();
}

/** Inserts or replaces one record (oidc-provider saves a model again when it changes). */
export async function upsertRecord(db: Kysely<DB>, row: OauthRecordsTable): Promise<void> {
  // A consumed mark is never undone by a later save, and the row keeps its first creation time.
  const { model: _m, id: _i, created_at: _c, consumed_at: _u, ...changed } = row;
  await t(db).insertInto("oauth_records").values(row)
    .onConflict((oc) => oc.columns(["model", "id"]).doUpdateSet(changed)).execute();
}

/** Marks a record used; returns whether it existed. */
export async function consumeRecord(db: Kysely<DB>, model: string, id: string, at: number): Promise<void> {
  await t(db).updateTable("oauth_records").set({ consumed_at: at }).where("model", "=", model).where("id", "=", id).where("consumed_at", "is", null).execute();
}

export async function deleteRecord(db: Kysely<DB>, model: string, id: string): Promise<void> {
  await t(db).deleteFrom("oauth_records").where("model", "=", model).where("id", "=", id).execute();
}

/** Every code and token of a grant, and the grant itself. */
export async function deleteByGrant(db: Kysely<DB>, grantId: string): Promise<number> {
  const r = await t(db).deleteFrom("oauth_records").where((eb) => eb.or([eb("grant_id", "=", grantId), eb.and([eb("model", "=", "Grant"), eb("id", "=", grantId)])])).executeTakeFirst();
  return Number(r.numDeletedRows);
}

/** Records past their expiry, a batch at a time. */
export async function deleteExpiredRecords(db: Kysely<DB>, now: number, limit: number): Promise<number> {
  const ids = await t(db).selectFrom("oauth_records").select(["model", "id"]).where("expires_at", "<=", now).limit(limit).execute();
  let n = 0;
  for (const r of ids) { await deleteRecord(db, r.model, r.id); n++; }
  return n;
}

/** The newest live grant of an account for a client (a remembered consent). */
export async function findLatestGrantId(db: Kysely<DB>, accountId: string, clientId: string, now: number): Promise<string | undefined> {
  const r = await t(db).selectFrom("oauth_records").select("id").where("model", "=", "Grant").where("account_id", "=", accountId).where("client_id", "=", clientId)
    .where((eb) => eb.or([eb("expires_at", "is", null), eb("expires_at", ">", now)])).orderBy("created_at", "desc").limit(1).executeTakeFirst();
  return r?.id;
}

/** The live grants of any of these account ids, newest first. */
export async function listAccountGrants(db: Kysely<DB>, accountIds: readonly string[], now: number): Promise<OauthRecordRow[]> {
  if (accountIds.length === 0) return [];
  return t(db).selectFrom("oauth_records").selectAll().where("model", "=", "Grant").where("account_id", "in", accountIds)
    .where((eb) => eb.or([eb("expires_at", "is", null), eb("expires_at", ">", now)])).orderBy("created_at", "desc").orderBy("id").execute();
}

/** Every record of these accounts: grants, codes, tokens, the provider's sessions and interactions. */
export async function deleteAccountRecords(db: Kysely<DB>, accountIds: readonly string[]): Promise<number> {
  if (accountIds.length === 0) return 0;
  return Number((await t(db).deleteFrom("oauth_records").where("account_id", "in", accountIds).executeTakeFirst()).numDeletedRows);
}

/** An account's live grants (the consents it gave), newest first. */
export async function listGrants(db: Kysely<DB>, accountId: string, now: number): Promise<OauthRecordRow[]> {
  return t(db).selectFrom("oauth_records").selectAll().where("model", "=", "Grant").where("account_id", "=", accountId)
    .where((eb) => eb.or([eb("expires_at", "is", null), eb("expires_at", ">", now)])).orderBy("created_at", "desc").orderBy("id").limit(200).execute();
}

export async function insertClient(db: Kysely<DB>, row: OauthClientsTable): Promise<void> {
  await t(db).insertInto("oauth_clients").values(row).execute();
}
export async function findClient(db: Kysely<DB>, clientId: string): Promise<OauthClientRow | undefined> {
  return t(db).selectFrom("oauth_clients").selectAll().where("client_id", "=", clientId).executeTakeFirst();
}
export async function listClients(db: Kysely<DB>): Promise<OauthClientRow[]> {
  return t(db).selectFrom("oauth_clients").selectAll().orderBy("created_at").orderBy("client_id").execute();
}
export async function deleteClient(db: Kysely<DB>, clientId: string): Promise<boolean> {
  const r = await t(db).deleteFrom("oauth_clients").where("client_id", "=", clientId).executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}
/** Every record (codes, tokens, grants) issued to a client. */
export async function deleteClientRecords(db: Kysely<DB>, clientId: string): Promise<void> {
  await t(db).deleteFrom("oauth_records").where("client_id", "=", clientId).execute();
}

export async function insertResource(db: Kysely<DB>, row: OauthResourcesTable): Promise<void> {
  await t(db).insertInto("oauth_resources").values(row).execute();
}
export async function findResource(db: Kysely<DB>, resource: string): Promise<OauthResourceRow | undefined> {
  return t(db).selectFrom("oauth_resources").selectAll().where("resource", "=", resource).executeTakeFirst();
}
export async function listResources(db: Kysely<DB>): Promise<OauthResourceRow[]> {
  return t(db).selectFrom("oauth_resources").selectAll().orderBy("created_at").orderBy("resource").execute();
}
export async function deleteResource(db: Kysely<DB>, resource: string): Promise<boolean> {
  const r = await t(db).deleteFrom("oauth_resources").where("resource", "=", resource).executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}
