import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { createApp } from "../../src/app.js";
import { testConfig } from "../../src/config.js";
import { startHttpServer } from "../../src/http/server.js";
import { createManualClock } from "../../src/util/clock.js";
import { closedPort } from "./oidc-provider.js";
import { populateEveryTable } from "./populate.js";

/** The secret the fixture's server sealed its keys and second-factor secrets with (a test's, not a real one). */
export const FIXTURE_SECRET = "the upgrade fixture's server secret, for tests only 0123456789";

/**
 * Writes the upgrade fixture: a SQLite database made and filled by the authsvc of this checkout
 * (scripts/upgrade-fixture.mjs runs this in a copy of the release commit's own files), dumped as
 * JSON: its migrations, its schema as SQLite holds it, every table's rows, the numbering of its
 * AUTOINCREMENT tables, and what the test needs to act as its people (password, the TOTP secret,
 * tokens). Only what this commit already had is used here, so a release's own code writes it.
 */
export async function writeUpgradeFixture(out: string, commit: string): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "authsvc-fixture-"));
  try {
    const file = join(dir, "authsvc.db");
    const port = await closedPort();
    const url = `http://127.0.0.1:${port}`;
    const clock = createManualClock(Date.now());
    const app = await createApp(testConfig({ database: file, port, publicUrl: url, websiteUrl: url, corsOrigins: [url], hostedPages: true, secret: FIXTURE_SECRET }), { clock });
    await app.migrate();
    const server = await startHttpServer(app.http, { port, host: "127.0.0.1", bodyLimit: app.ctx.config.bodyLimit, logger: app.ctx.logger });
    const populated = await populateEveryTable({ app, url, clock }, "http://127.0.0.1:9/hooks");
    await server.stop(0);
    await app.close();
    writeFileSync(out, dump(file, { commit, madeAt: clock.now(), publicUrl: url, populated }));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function dump(file: string, head: Record<string, unknown>): string {
  const db = new Database(file, { readonly: true });
  try {
    const schema = db.prepare("select type, name, tbl_name as tbl, sql from sqlite_master where name not like 'sqlite\\_%' escape '\\' order by type, name").all();
    const migrations = db.prepare("select name, applied_at from authsvc_migrations order by name").all();
    const sequences = Object.fromEntries((db.prepare("select name, seq from sqlite_sequence order by name").all() as Array<{ name: string; seq: number }>).map((r) => [r.name, r.seq]));
    const names = (db.prepare("select name from sqlite_master where type = 'table' and name not like 'sqlite\\_%' escape '\\' and name <> 'authsvc_migrations' order by name").all() as Array<{ name: string }>).map((r) => r.name);
    // One row a line, so a later fixture's diff reads table by table.
    const tables = names.map((name) => {
      const stmt = db.prepare(`select * from "${name}" order by rowid`).raw(true);
      const columns = stmt.columns().map((c) => c.name);
      const rows = (stmt.all() as unknown[][]).map((r) => `      ${JSON.stringify(r)}`);
      return `    ${JSON.stringify(name)}: {\n      "columns": ${JSON.stringify(columns)},\n      "rows": [\n${rows.map((r) => `  ${r}`).join(",\n")}\n      ]\n    }`;
    });
    const top = JSON.stringify({ ...head, migrations, sequences, schema }, null, 2).replace(/\n}$/, "");
    return `${top},\n  "tables": {\n${tables.join(",\n")}\n  }\n}\n`;
  } finally {
    db.close();
  }
}
