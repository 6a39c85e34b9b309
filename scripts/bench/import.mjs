// Bench: `authsvc users import` of 100,000 users (10,000 with --quick) into an empty SQLite file,
// through the built CLI (time and the import process's peak memory), and `users export` of the result. The ceiling is the same rows written
// straight through better-sqlite3 (prepared statements, 1000-row transactions, no validation,
// no duplicate checks): the ratio says how close the import is to what the storage can take.
// With AUTHSVC_BENCH_PG_URL (or AUTHSVC_TEST_PG_URL) set, the same import into PostgreSQL too.
// Usage: node scripts/build.mjs && node scripts/bench/import.mjs [--quick]
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { hash } from "@node-rs/bcrypt";
import Database from "better-sqlite3";

const root = fileURLToPath(new URL("../..", import.meta.url));
const run$ = promisify(execFile);

export default async function run({ quick = false, log = () => {} } = {}) {
  if (!existsSync(join(root, "dist", "cli.mjs"))) await run$(process.execPath, [join(root, "scripts", "build.mjs")], { cwd: root });
  const users = quick ? 10_000 : 100_000;
  const dir = mkdtempSync(join(tmpdir(), "authsvc-bench-import-"));
  try {
    // Hashes are taken as they are (never computed per row), so one real bcrypt hash serves every row.
    const pw = await hash("benchmark password", { cost: 10 });
    const base = Date.UTC(2024, 0, 1);
    const lines = [];
    for (let i = 0; i < users; i++) {
      lines.push(i % 10 === 9
        ? JSON.stringify({ id: `u${i}`, email: `user${i}@example.com`, timeJoined: base + i, verified: true, loginMethods: [{ recipeId: "thirdparty", thirdParty: { id: "github", userId: String(i) } }] })
        : JSON.stringify({ id: `u${i}`, email: `user${i}@example.com`, timeJoined: base + i, verified: i % 2 === 0, passwordHash: pw }));
    }
    const file = join(dir, "users.jsonl");
    writeFileSync(file, lines.join("\n") + "\n");
    log(`import bench: ${users} users, ${(statSync(file).size / 1e6).toFixed(1)} MB of JSONL`);

    const db = join(dir, "import.db");
    const cli = (...args) => run$(process.execPath, [join(root, "bin", "authsvc"), ...args, "--database", db, "--log-level", "error"], { cwd: root, maxBuffer: 1 << 26 });
    await cli("migrate"); // schema creation is not part of the import figure
    // Peak memory of the import process: the rows are streamed (read once to check, once to write), not held.
    const rssFile = join(dir, "import-rss");
    const env = { ...process.env, NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ""} --require ${join(root, "scripts", "bench-lib", "max-rss.cjs")}`, AUTHSVC_BENCH_RSS_FILE: rssFile };
    let t0 = process.hrtime.bigint();
    const out = await run$(process.execPath, [join(root, "bin", "authsvc"), "users", "import", file, "--json", "--database", db, "--log-level", "error"], { cwd: root, maxBuffer: 1 << 26, env });
    const importS = Number(process.hrtime.bigint() - t0) / 1e9;
    const peakMiB = Number(readFileSync(rssFile, "utf8")) / 1024;
    log(`import peak memory: ${peakMiB.toFixed(0)} MiB`);
    const report = JSON.parse(out.stdout);
    if (report.created !== users) throw new Error(`import created ${report.created} of ${users}: ${out.stdout.slice(0, 500)}`);
    log(`import: ${importS.toFixed(2)} s`);

    t0 = process.hrtime.bigint();
    await cli("users", "export", "--output", join(dir, "export.jsonl"));
    const exportS = Number(process.hrtime.bigint() - t0) / 1e9;
    log(`export: ${exportS.toFixed(2)} s`);

    const ceilingS = rawInsert(join(dir, "raw.db"), users, pw, base);
    log(`raw better-sqlite3 insert: ${ceilingS.toFixed(2)} s`);
    const rate = users / importS, ceilingRate = users / ceilingS;
    const pgUrl = process.env.AUTHSVC_BENCH_PG_URL ?? process.env.AUTHSVC_TEST_PG_URL;
    const pgRows = pgUrl ? await importIntoPostgres(pgUrl, file, users, log) : [];
    return [
      { scenario: `users import (${users} users, SQLite)`, figure: "time", value: +importS.toFixed(2), unit: "s" },
      { scenario: `users import (${users} users, SQLite)`, figure: "peak memory (RSS)", value: Math.round(peakMiB), unit: "MiB" },
      { scenario: `users import (${users} users, SQLite)`, figure: "throughput", value: Math.round(rate), unit: "users/s", ceiling: "raw better-sqlite3 insert, 1000-row transactions", ceilingValue: Math.round(ceilingRate), ratio: +(rate / ceilingRate).toFixed(3) },
      { scenario: `users export (${users} users, SQLite)`, figure: "throughput", value: Math.round(users / exportS), unit: "users/s" },
      ...pgRows,
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The same import into a fresh schema of a PostgreSQL database (dropped afterwards). */
async function importIntoPostgres(url, file, users, log) {
  const { default: pg } = await import("pg");
  const schema = `bench_import_${process.pid}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    await admin.query(`create schema "${schema}"`);
    const u = new URL(url);
    u.searchParams.set("schema", schema);
    const cli = (...args) => run$(process.execPath, [join(root, "bin", "authsvc"), ...args, "--database", u.toString(), "--log-level", "error"], { cwd: root, maxBuffer: 1 << 26 });
    await cli("migrate");
    const t0 = process.hrtime.bigint();
    const report = JSON.parse((await cli("users", "import", file, "--json")).stdout);
    const s = Number(process.hrtime.bigint() - t0) / 1e9;
    if (report.created !== users) throw new Error(`PostgreSQL import created ${report.created} of ${users}`);
    log(`PostgreSQL import: ${s.toFixed(2)} s`);
    return [{ scenario: `users import (${users} users, PostgreSQL)`, figure: "throughput", value: Math.round(users / s), unit: "users/s" }];
  } finally {
    await admin.query(`drop schema if exists "${schema}" cascade`);
    await admin.end();
  }
}

/** The same rows, inserted as directly as SQLite allows (same pragmas as authsvc: WAL, FULL). */
function rawInsert(file, users, pw, base) {
  const db = new Database(file);
  db.pragma("journal_mode = WAL");
  db.pragma("synchronous = FULL");
  db.exec(`create table users (id text primary key, email text not null, time_joined bigint not null, updated_at bigint not null);
    create index users_email_idx on users(email); create index users_tj on users(time_joined, id);
    create table creds (user_id text primary key, email text not null unique, password_hash text not null, created_at bigint, updated_at bigint);
    create table tp (provider_id text, provider_user_id text, user_id text, email text, created_at bigint, updated_at bigint, primary key (provider_id, provider_user_id));
    create table verified (user_id text, email text, verified_at bigint, primary key (user_id, email));
    create table events (id integer primary key, at bigint, type text, user_id text, data text);`);
  const u = db.prepare("insert into users values (?, ?, ?, ?)");
  const c = db.prepare("insert into creds values (?, ?, ?, ?, ?)");
  const t = db.prepare("insert into tp values (?, ?, ?, ?, ?, ?)");
  const v = db.prepare("insert into verified values (?, ?, ?)");
  const e = db.prepare("insert into events (at, type, user_id, data) values (?, ?, ?, ?)");
  const batch = db.transaction((from, to) => {
    for (let i = from; i < to; i++) {
      const id = `u${i}`, email = `user${i}@example.com`, now = Date.now();
      u.run(id, email, base + i, now);
      if (i % 10 === 9) t.run("github", String(i), id, email, base + i, now);
      else c.run(id, email, pw, base + i, now);
      if (i % 10 === 9 || i % 2 === 0) v.run(id, email, now);
      e.run(now, "user.imported", id, '{"source":"bench"}');
    }
  });
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < users; i += 1000) batch(i, Math.min(users, i + 1000));
  const s = Number(process.hrtime.bigint() - t0) / 1e9;
  db.close();
  return s;
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(JSON.stringify(await run({ quick: process.argv.includes("--quick"), log: console.error }), null, 2));
