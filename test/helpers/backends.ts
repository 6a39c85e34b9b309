import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";

/**
 * The databases every store and HTTP test runs on: a real SQLite file always, and a real
 * PostgreSQL schema whenever AUTHSVC_TEST_PG_URL is set (CI always sets it).
 */
export interface Backend {
  name: "sqlite" | "postgres";
  /** A fresh, empty database URL (file path or postgres URL with ?schema=). */
  create(): Promise<{ url: string; drop(): Promise<void> }>;
}

const pgUrl = process.env.AUTHSVC_TEST_PG_URL;

/** The URL for a plain pg client (the tests' own set-up): authsvc's own parameters removed. */
function clientUrl(url: string): string {
  const u = new URL(url);
  u.searchParams.delete("pooler");
  return u.toString();
}

export const sqliteBackend: Backend = {
  name: "sqlite",
  async create() {
    const dir = mkdtempSync(join(tmpdir(), "authsvc-test-"));
    return { url: join(dir, "test.db"), drop: async () => rmSync(dir, { recursive: true, force: true }) };
  },
};

export const postgresBackend: Backend = {
  name: "postgres",
  async create() {
    if (!pgUrl) throw new Error("AUTHSVC_TEST_PG_URL is not set");
    const schema = `t_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
    const client = new pg.Client({ connectionString: clientUrl(pgUrl) });
    await client.connect();
    await client.query(`create schema "${schema}"`);
    await client.end();
    const url = new URL(pgUrl);
    url.searchParams.set("schema", schema);
    return {
      url: url.toString(),
      drop: async () => {
        const c = new pg.Client({ connectionString: clientUrl(pgUrl) });
        await c.connect();
        await c.query(`drop schema if exists "${schema}" cascade`);
        await c.end();
      },
    };
  },
};

/**
 * SQLite, plus PostgreSQL when configured. Use with describe.each(backends).
 * AUTHSVC_TEST_BACKENDS=postgres runs the PostgreSQL half alone (CI's second pass through a
 * transaction-mode pooler, .ci/run, which has run the SQLite half already).
 */
export const backends: Backend[] = !pgUrl ? [sqliteBackend] : process.env.AUTHSVC_TEST_BACKENDS === "postgres" ? [postgresBackend] : [sqliteBackend, postgresBackend];
