// The dashboard's user search at scale (issue 24): p50 of GET /admin/users?q=<prefix> (the real page,
// through the built server, signed in as an admin) on a SQLite database of 1k users and of 1M users,
// and the ratio 1M ÷ 1k (target ≤ 1.5: the search walks an index range, so its cost does not grow with
// the table). Both sizes answer a full page (50 people) for the prefix. One run, not a timed test.
// With --pg <url> (or AUTHSVC_BENCH_PG_URL) the same on PostgreSQL.
// Usage: node scripts/build.mjs && node scripts/bench/user-search.mjs [--quick] [--pg postgres://…]
import { execFileSync, spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import Database from "better-sqlite3";
import pg from "pg";

const root = fileURLToPath(new URL("../..", import.meta.url));
const cli = join(root, "bin/authsvc");
const PREFIX = "user1"; // user1, user10…, user100…: well over a page at both sizes
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
// Not a real hash: these users never sign in; the column only has to hold a value of the stored shape.
const FAKE_HASH = "bcrypt-sha384:$2b$04$benchbenchbenchbenchbeu5oSJgRc0kYPiWcbM6kx9dU8cN6Rr0pO";

/** `count` users with a password login each, in big transactions of prepared inserts. */
export function seedSqlite(file, count) {
  execFileSync(process.execPath, [cli, "migrate", "--database", file, "--log-level", "warn"], { stdio: ["ignore", "ignore", "inherit"] });
  const db = new Database(file);
  db.pragma("synchronous = OFF");
  const user = db.prepare("insert into users (id, email, time_joined, updated_at) values (?, ?, ?, ?)");
  const cred = db.prepare("insert into email_password_credentials (user_id, email, password_hash, created_at, updated_at) values (?, ?, ?, ?, ?)");
  const t0 = Date.now() - count;
  const batch = db.transaction((from, to) => {
    for (let i = from; i < to; i++) {
      const id = randomUUID(), email = `user${i}@example.com`;
      user.run(id, email, t0 + i, t0 + i);
      cred.run(id, email, FAKE_HASH, t0 + i, t0 + i);
    }
  });
  for (let i = 0; i < count; i += 100_000) batch(i, Math.min(count, i + 100_000));
  db.exec("analyze");
  db.pragma("wal_checkpoint(TRUNCATE)");
  db.close();
}

/** The same on a PostgreSQL schema (generate_series: one statement per table). */
async function seedPostgres(url, count) {
  execFileSync(process.execPath, [cli, "migrate", "--database", url, "--log-level", "warn"], { stdio: ["ignore", "ignore", "inherit"] });
  const schema = new URL(url).searchParams.get("schema");
  const c = new pg.Client({ connectionString: url.replace(/\?.*$/, "") });
  await c.connect();
  await c.query(`set search_path to "${schema}"`);
  const t0 = Date.now() - count;
  await c.query(`insert into users (id, email, time_joined, updated_at) select gen_random_uuid()::text, 'user' || g || '@example.com', $1::bigint + g, $1::bigint + g from generate_series(0, $2::int - 1) g`, [t0, count]);
  await c.query(`insert into email_password_credentials (user_id, email, password_hash, created_at, updated_at) select id, email, $1, time_joined, time_joined from users`, [FAKE_HASH]);
  await c.query("analyze");
  await c.end();
}

async function startServer(database, dir) {
  const child = spawn(process.execPath, [cli, "serve", "--port", "0", "--host", "127.0.0.1", "--database", database, "--no-mail-catcher", "--no-rate-limits", "--log-level", "warn"], { stdio: ["ignore", "ignore", "pipe"], cwd: dir });
  const port = await new Promise((resolve, reject) => {
    let buf = "";
    child.stderr.on("data", (d) => { buf += d; const m = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(buf); if (m) resolve(Number(m[1])); });
    child.on("exit", (code) => reject(new Error(`server exited with ${code}: ${buf}`)));
  });
  return { url: `http://127.0.0.1:${port}`, stop: () => new Promise((r) => { child.once("exit", r); child.kill("SIGTERM"); }) };
}

/** p50 of the search page, `n` sequential requests after a warm-up; every answer must be a full page. */
async function measure(url, cookie, n) {
  const path = `/admin/users?q=${PREFIX}`;
  const once = async () => {
    const t = performance.now();
    const res = await fetch(url + path, { headers: { cookie }, redirect: "manual" });
    const body = await res.text();
    const ms = performance.now() - t;
    if (res.status !== 200 || (body.match(/<th scope="row"><a href="\/admin\/users\//g) ?? []).length !== 50) throw new Error(`GET ${path}: ${res.status}, not a full page of results`);
    return ms;
  };
  for (let i = 0; i < Math.min(20, n); i++) await once();
  const times = [];
  for (let i = 0; i < n; i++) times.push(await once());
  return median(times);
}

export default async function userSearchBench({ quick = false, log = console.error, pgUrl = process.env.AUTHSVC_BENCH_PG_URL } = {}) {
  const { signInAdmin } = await import(pathToFileURL(join(root, "scripts/bench-lib/dashboard-admin.mjs")).href);
  const n = quick ? 100 : 400;
  const dir = mkdtempSync(join(tmpdir(), "authsvc-bench-search-"));
  const figures = [];
  const backends = [{ name: "SQLite", make: async (count) => { const f = join(dir, `users-${count}.db`); seedSqlite(f, count); return { database: f, drop: async () => {} }; } }];
  if (pgUrl) backends.push({ name: "PostgreSQL", make: async (count) => makePgSchema(pgUrl, count) });
  try {
    for (const b of backends) {
      const p50 = {};
      for (const count of [1_000, 1_000_000]) {
        log(`  ${b.name}: seeding ${count} users`);
        const db = await b.make(count);
        const server = await startServer(db.database, dir);
        try {
          const cookie = await signInAdmin(server.url, db.database);
          p50[count] = await measure(server.url, cookie, n);
          log(`  ${b.name}: ${count} users: p50 ${p50[count].toFixed(2)} ms`);
        } finally {
          await server.stop();
          await db.drop();
        }
      }
      const ratio = p50[1_000_000] / p50[1_000];
      figures.push({ scenario: `GET /admin/users?q=${PREFIX} (a page of 50), ${b.name}, 1M users (ceiling: the same at 1k users; target ≤ 1.5)`, figure: "p50", value: +p50[1_000_000].toFixed(2), unit: "ms", ceiling: "1k users", ceilingValue: +p50[1_000].toFixed(2), ratio: +ratio.toFixed(3), target: "≤ 1.5", pass: ratio <= 1.5 });
    }
    return figures;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function makePgSchema(base, count) {
  const schema = `bench_search_${process.pid}_${count}`;
  const c = new pg.Client({ connectionString: base });
  await c.connect();
  await c.query(`drop schema if exists "${schema}" cascade`);
  await c.end();
  const url = new URL(base);
  url.searchParams.set("schema", schema);
  await seedPostgres(url.toString(), count);
  return {
    database: url.toString(),
    drop: async () => { const d = new pg.Client({ connectionString: base }); await d.connect(); await d.query(`drop schema if exists "${schema}" cascade`); await d.end(); },
  };
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const i = process.argv.indexOf("--pg");
  const figures = await userSearchBench({ quick: process.argv.includes("--quick"), pgUrl: i > 0 ? process.argv[i + 1] : process.env.AUTHSVC_BENCH_PG_URL });
  for (const f of figures) console.log(`${f.scenario}: ${f.value} ${f.unit} vs ${f.ceilingValue} → ${f.ratio} ${f.pass ? "pass" : "FAIL"}`);
}
