import { createRequire } from "node:module";
import type PgModule from "pg";
import { MoveInError } from "./common.js";

/**
 * A SuperTokens core's PostgreSQL database, read only. The URL is the one the core's
 * `postgresql_connection_uri` names; `?schema=NAME` reads its tables from that schema
 * (`postgresql_table_schema`), as authsvc's own database URLs do. The app and tenant read are
 * SuperTokens' defaults ("public").
 */
export async function withSupertokensDb<T>(url: string, fn: (q: <R>(text: string) => Promise<R[]>) => Promise<T>): Promise<T> {
  if (!/^postgres(ql)?:\/\//.test(url)) throw new MoveInError(`--from supertokens reads the core's database: give its postgres:// URL (not ${JSON.stringify(url)})`);
  const parsed = new URL(url);
  const schema = parsed.searchParams.get("schema");
  parsed.searchParams.delete("schema");
  if (schema !== null && !/^[A-Za-z_][A-Za-z0-9_$]{0,62}$/.test(schema)) throw new MoveInError(`?schema=${schema} is not a schema name`);
  // pg loaded here, not at start: a server that never imports from a SuperTokens core never needs it.
  const pg = (typeof require === "function" ? require("pg") : createRequire(import.meta.url)("pg")) as typeof PgModule;
  const client = new pg.Client({ connectionString: parsed.toString() });
  try {
    await client.connect();
  } catch (err) {
    throw new MoveInError(`cannot connect to the SuperTokens database: ${(err as Error).message}`);
  }
  try {
    // Read-only from the first query on: the import never writes to the core's database.
    await client.query("set session characteristics as transaction read only");
    if (schema) await client.query(`set search_path to "${schema}"`);
    return await fn(async <R>(text: string) => {
      try {
        return (await client.query(text)).rows as R[];
      } catch (err) {
        throw new MoveInError(`reading the SuperTokens database: ${(err as Error).message}`);
      }
    });
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** Whether a table exists (older cores have no TOTP or account-linking tables). */
export async function hasTable(q: <R>(text: string) => Promise<R[]>, table: string): Promise<boolean> {
  const rows = await q<{ t: string | null }>(`select to_regclass('${table}')::text as t`);
  return rows[0]?.t !== null && rows[0]?.t !== undefined;
}
