// `npm run bench`: authsvc's figures as ratios to ceilings measured in the same run (docs/performance.md).
// Starts the built CLI (run `node scripts/build.mjs` first), an h3 hello-world on the same listener stack,
// and a separate load-generator process per measurement; every scenario runs `--runs` times, interleaved
// with its ceiling, and the median is reported with its spread. Then every scripts/bench/*.mjs module runs.
// Usage: node scripts/bench.mjs [--quick] [--runs 3] [--seconds 8] [--bcrypt-cost 11 (quick: 8)] [--users 1000000]
//        [--pg postgres://postgres@127.0.0.1:5432/test] [--no-pg] [--modules-only] [--no-modules] [--out bench-results.json]
//        [--only get,postgres,refresh,hashing,million,latency] (a subset of the scenarios, with their ceilings)
//        [--compare <git ref>] (this checkout against that commit, built in a temporary worktree, interleaved)
import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import pg from "pg";
import { measureBcrypt, measureFsyncCommit, measureRs256 } from "./bench-lib/ceilings.mjs";
import { printTable, summarise } from "./bench-lib/report.mjs";
import { mintSessions, seedUsers } from "./bench-lib/seed.mjs";
import { startAuthsvc, startHello } from "./bench-lib/servers.mjs";
import { runCompare } from "./bench-lib/compare.mjs";

const { values: opt } = parseArgs({ options: {
  quick: { type: "boolean", default: false }, runs: { type: "string" }, seconds: { type: "string" },
  "bcrypt-cost": { type: "string" }, users: { type: "string" }, connections: { type: "string", default: "50" },
  pg: { type: "string", default: process.env.AUTHSVC_BENCH_PG_URL ?? "postgres://postgres@127.0.0.1:5432/test" },
  "no-pg": { type: "boolean", default: false }, "modules-only": { type: "boolean", default: false }, "no-modules": { type: "boolean", default: false }, only: { type: "string" }, out: { type: "string", default: "bench-results.json" },
  compare: { type: "string" },
} });
const quick = opt.quick;
const runs = Number(opt.runs ?? 3);
const seconds = Number(opt.seconds ?? (quick ? 1 : 8));
const warmup = quick ? 0.5 : 2;
// The server's default cost (11) for real runs (10 with --compare: the production minimum, and the cost the
// sign-in budget is stated at); the smoke run uses 8 so a second of load still
// completes enough sign-ins to mean something (the ceiling uses the same cost, so ratios still hold).
const cost = Number(opt["bcrypt-cost"] ?? (quick ? 8 : opt.compare ? 10 : 11));
const users = Number(opt.users ?? (quick ? 100_000 : 1_000_000));
const connections = Number(opt.connections);
const password = "a long benchmark passphrase";
const log = (...a) => console.error(...a);
const groups = ["get", "postgres", "refresh", "hashing", "million", "latency"];
const only = new Set(opt.only ? opt.only.split(",") : groups);
for (const g of only) if (!groups.includes(g)) throw new Error(`--only: unknown scenario ${g} (one of ${groups.join(", ")})`);
const wants = (g) => only.has(g);

if (!existsSync("dist/cli.mjs")) execFileSync(process.execPath, ["scripts/build.mjs"], { stdio: "inherit" });
const dir = mkdtempSync(join(tmpdir(), "authsvc-bench-"));
const pgSchema = `bench_${process.pid}`;
const started = [];
const samples = {}; // figure key → values, one per run

/** Runs the load generator in its own process and returns its JSON result. */
function load(url, kind, extra = {}) {
  const spec = { mode: "throughput", url, kind, connections, seconds, warmupSeconds: warmup, password, ...extra };
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["scripts/bench-lib/load.mjs", JSON.stringify(spec)], { stdio: ["ignore", "pipe", "inherit"] });
    let out = "";
    child.stdout.on("data", (d) => { out += d; });
    child.on("exit", (code) => (code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`load generator exited with ${code}`))));
  });
}
const record = (key, value) => { (samples[key] ??= []).push(value); };
const checkOk = (name, r) => { if (r.non2xx || r.errors) log(`  warning: ${name}: ${r.non2xx} non-2xx, ${r.errors} errors of ${r.total}`); };

async function call(base, method, path, headers, body) {
  const res = await fetch(base + path, { method, headers: { "content-type": "application/json", ...headers }, body: body && JSON.stringify(body) });
  if (res.status !== 200) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return res;
}
const form = (email) => ({ formFields: [{ id: "email", value: email }, { id: "password", value: password }] });
/**
 * Signs two users up: one whose access token the GET scenarios use, and one the sign-in scenario
 * signs in as. Not one user for both: a sign-in past --sessions-per-user (100) revokes the user's
 * oldest session, and the GETs would then measure the 401 of a revoked session.
 */
async function prepare(base, email) {
  const up = await call(base, "POST", "/auth/signup", { "st-auth-mode": "header" }, form(`get-${email}`));
  await call(base, "POST", "/auth/signup", { "st-auth-mode": "header" }, form(email));
  return { access: up.headers.get("st-access-token"), email };
}

async function startAll() {
  log(`bench: ${quick ? "quick, " : ""}${runs} runs of ${seconds}s (+${warmup}s warm-up), ${connections} connections, bcrypt cost ${cost}`);
  const hello = await startHello(); started.push(hello); // the GET ceiling, and the latency floor
  const sqlite = await startAuthsvc(join(dir, "bench.db"), { bcryptCost: cost }); started.push(sqlite);
  let postgres;
  if (!opt["no-pg"] && wants("postgres")) {
    const url = new URL(opt.pg); url.searchParams.set("schema", pgSchema);
    postgres = await startAuthsvc(url.toString(), { bcryptCost: cost }); started.push(postgres);
  }
  let million;
  if (wants("million")) {
    const big = join(dir, "users.db");
    execFileSync(process.execPath, ["bin/authsvc", "migrate", "--database", big], { stdio: "ignore" });
    execFileSync(process.execPath, ["bin/authsvc", "users", "create", "user0@example.com", "--password-stdin", "--database", big, "--bcrypt-cost", String(cost)], { input: password, stdio: ["pipe", "ignore", "inherit"] });
    const t0 = performance.now();
    await seedUsers(big, users);
    log(`seeded ${users} users in ${((performance.now() - t0) / 1000).toFixed(1)}s`);
    million = await startAuthsvc(big, { bcryptCost: cost }); started.push(million);
  }
  return { hello, sqlite, postgres, million };
}

async function round(s, state, i) {
  log(`run ${i + 1}/${runs}`);
  if (wants("get") || wants("postgres")) {
    const hello = await load(s.hello.url, "hello"); record("hello", hello.rps);
    const get = await load(s.sqlite.url, "get", { access: state.sqlite.access }); checkOk("GET sqlite", get); record("getSqlite", get.rps);
  }
  if (s.postgres && wants("postgres")) { const r = await load(s.postgres.url, "get", { access: state.postgres.access }); checkOk("GET postgres", r); record("getPostgres", r.rps); }
  if (wants("refresh")) {
    const refreshTokens = mintSessions(join(dir, "bench.db"), state.sqlite.email, 2 * connections + 10);
    const refresh = await load(s.sqlite.url, "refresh", { refreshTokens }); checkOk("refresh", refresh); record("refresh", refresh.rps);
    record("rs256", measureRs256(Math.min(seconds, 2)));
    record("fsync", measureFsyncCommit(dir, Math.min(seconds, 2)));
  }
  // 8 connections keep the server's 4 hashing slots busy without a deep queue behind them.
  const hashing = { connections: 8, drainMs: 1000 };
  if (wants("hashing") || wants("million")) {
    const signin = await load(s.sqlite.url, "signin", { email: state.sqlite.email, ...hashing }); checkOk("sign-in", signin); record("signin", signin.rps);
  }
  if (wants("hashing")) {
    const signup = await load(s.sqlite.url, "signup", hashing); checkOk("sign-up", signup); record("signup", signup.rps);
    // Not while the sign-ups cut off by the load's end still hash in the server (compare.mjs).
    await new Promise((r) => setTimeout(r, hashing.drainMs));
    const b = await measureBcrypt(cost, Math.min(seconds, 3)); record("bcryptVerify", b.verify); record("bcryptHash", b.hash);
  }
  if (s.million) { const big = await load(s.million.url, "signin", { users, ...hashing }); checkOk("sign-in, many users", big); record("signinMillion", big.rps); }
  if (wants("latency")) {
    // p99 of a lightly loaded request, alone and while 4 clients sign up to authsvc (bcrypt, commits).
    const p99 = async (url, kind, key, extra = {}) => {
      const lat = { mode: "latency", connections: 4, rate: 400, ...extra };
      record(`${key}Alone`, (await load(url, kind, lat)).p99ms);
      const signups = load(s.sqlite.url, "signup", { connections: 4, seconds: seconds + warmup + 1, warmupSeconds: 0 });
      record(`${key}During`, (await load(url, kind, lat)).p99ms);
      await signups;
    };
    await p99(s.sqlite.url, "get", "p99", { access: state.sqlite.access });
    // The machine's own floor for that figure: the hello-world, which does no work at all.
    await p99(s.hello.url, "hello", "helloP99");
  }
}

async function runModules() {
  const figures = [];
  const folder = "scripts/bench";
  const files = existsSync(folder) ? readdirSync(folder).filter((f) => f.endsWith(".mjs")).sort() : [];
  for (const f of files) {
    log(`module ${f}`);
    try {
      const mod = await import(pathToFileURL(join(folder, f)).href);
      const out = await mod.default({ quick, log });
      for (const x of out ?? []) figures.push({ module: f, ...x });
    } catch (err) {
      log(`  module ${f} failed: ${err?.stack ?? err}`);
      figures.push({ module: f, scenario: f, figure: "error", error: String(err?.message ?? err) });
    }
  }
  return figures;
}

if (opt.compare) {
  execFileSync(process.execPath, ["scripts/build.mjs"], { stdio: "inherit" }); // this checkout as it is now
  try {
    const result = await runCompare({ ref: opt.compare, rounds: Number(opt.runs ?? (quick ? 2 : 5)), cost, seconds, load, log, password });
    writeFileSync(opt.out, JSON.stringify({ date: new Date().toISOString(), node: process.version, compare: result }, null, 2) + "\n");
    log(`wrote ${opt.out}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  process.exit(0);
}

try {
  if (!opt["modules-only"]) {
    const s = await startAll();
    const state = { sqlite: await prepare(s.sqlite.url, "bench@example.com") };
    if (s.postgres) state.postgres = await prepare(s.postgres.url, "bench@example.com");
    for (let i = 0; i < runs; i++) await round(s, state, i);
    for (const x of started.splice(0)) await x.stop();
  }
  const figures = summarise(samples, { cost });
  const modules = opt["no-modules"] ? [] : await runModules();
  printTable(figures, modules);
  const result = { date: new Date().toISOString(), node: process.version, quick, runs, seconds, connections, bcryptCost: cost, users, figures, modules, samples };
  writeFileSync(opt.out, JSON.stringify(result, null, 2) + "\n");
  log(`wrote ${opt.out}`);
} finally {
  for (const x of started) await x.stop();
  if (!opt["no-pg"] && !opt["modules-only"]) {
    const client = new pg.Client({ connectionString: opt.pg });
    try { await client.connect(); await client.query(`drop schema if exists ${pgSchema} cascade`); } catch (err) { log(`could not drop schema ${pgSchema}: ${err.message}`); } finally { await client.end().catch(() => {}); }
  }
  rmSync(dir, { recursive: true, force: true });
}
