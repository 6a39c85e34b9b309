import { createRequire } from "node:module";
import { existsSync } from "node:fs";
import { CompiledQuery, Kysely, PostgresDialect, SqliteDialect } from "kysely";
import type PgModule from "pg";
import { isPostgresUrl, sqliteFilePath } from "../store/database.js";
import { MoveInError } from "./common.js";

/**
 * Another system's database, opened read-only for an import: a SQLite file (opened read-only) or a
 * PostgreSQL URL (`?schema=` sets the search path, as for authsvc's own). Tables are untyped: each
 * importer names the columns it reads.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type SourceDb = Kysely<any>;

export function openSourceDb(url: string, what: string): SourceDb {
  const req = typeof require === "function" ? require : createRequire(import.meta.url);
  if (isPostgresUrl(url)) {
    const pg = req("pg") as typeof PgModule;
    const parsed = new URL(url);
    const schema = parsed.searchParams.get("schema");
    parsed.searchParams.delete("schema");
    const pool = new pg.Pool({ connectionString: parsed.toString(), max: 2 });
    pool.on("error", () => {});
    return new Kysely({
      dialect: new PostgresDialect({ pool, onCreateConnection: schema ? async (c) => { await c.executeQuery(CompiledQuery.raw(`set search_path to "${schema.replace(/"/g, "")}"`)); } : undefined }),
    });
  }
  const file = sqliteFilePath(url);
  if (!existsSync(file)) throw new MoveInError(`${file}: no such file (give ${what} as a SQLite file or a postgres:// URL)`);
  const Database = req("better-sqlite3") as typeof import("better-sqlite3");
  return new Kysely({ dialect: new SqliteDialect({ database: new Database(file, { readonly: true, fileMustExist: true }) }) });
}

/** A database error as a MoveInError naming the source (a missing table or column is the usual one). */
export function sourceDbError(err: unknown, what: string): never {
  if (err instanceof MoveInError) throw err;
  throw new MoveInError(`cannot read ${what}: ${(err as Error).message}`);
}
