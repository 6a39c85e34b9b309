import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { CompiledQuery } from "kysely";
import { afterEach, describe, expect, it } from "vitest";
import { STATEMENT_CACHE_MAX, SyncedSqliteDialect } from "../../src/store/sqlite-driver.js";

// Bounded growth (issue 51, docs/performance.md "Bounded caches"): the SQLite connection keeps the
// statements it prepared, by SQL text, and at most STATEMENT_CACHE_MAX of them, so a server that
// meets ever new SQL (a search per column set, an admin's filters...) does not grow with it. SQLite
// only: the PostgreSQL driver keeps no statements of its own (pg's unnamed statements).

describe("the SQLite connection's prepared statements", () => {
  const dirs: string[] = [];
  afterEach(() => { while (dirs.length) rmSync(dirs.pop()!, { recursive: true, force: true }); });

  it("stay at most 500 however many different queries run, and every query still answers right", async () => {
    const dir = mkdtempSync(join(tmpdir(), "authsvc-statements-"));
    dirs.push(dir);
    const raw = new Database(join(dir, "test.db"));
    const driver = new SyncedSqliteDialect(raw, {}).createDriver();
    const conn = (await driver.acquireConnection()) as unknown as { preparedStatements: number; executeQuery<R>(q: CompiledQuery): Promise<{ rows: R[] }> };
    expect(STATEMENT_CACHE_MAX).toBe(500);
    let most = 0;
    for (let i = 0; i < 3 * STATEMENT_CACHE_MAX; i++) {
      const { rows } = await conn.executeQuery<{ n: number }>(CompiledQuery.raw(`select ? + ${i} as n`, [1]));
      expect(rows).toEqual([{ n: i + 1 }]);
      most = Math.max(most, conn.preparedStatements);
    }
    expect(most).toBe(STATEMENT_CACHE_MAX + 1);
    // The same query again reuses its statement: the count does not move.
    const before = conn.preparedStatements;
    await conn.executeQuery(CompiledQuery.raw(`select ? + ${3 * STATEMENT_CACHE_MAX - 1} as n`, [1]));
    expect(conn.preparedStatements).toBe(before);
    await driver.releaseConnection(conn as never);
    await driver.destroy();
  });
});
