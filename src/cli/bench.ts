import { createSign, generateKeyPairSync } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { availableParallelism, cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { hashSync, verifySync } from "@node-rs/bcrypt";
import { Command } from "commander";
import { sql } from "kysely";
import { createApp } from "../app.js";
import type { Config } from "../config/types.js";
import { startHttpServer } from "../http/server.js";
import { isPostgresUrl } from "../store/database.js";
import { maskUrlPassword } from "../util/mask-url.js";
import { createLogger } from "../util/logger.js";
import { runLoad, type LoadResult } from "./bench-load.js";
import { describeVersion } from "./main.js";
import { CliError, type CliIO } from "./io.js";
import { addConfigOptions, configFromFlags } from "./options.js";
import { createProgress } from "./progress.js";

const PASSWORD = "a long benchmark passphrase";

/** One figure of the report (docs/performance.md, "authsvc bench"). */
interface Figure {
  /** Requests answered 200 per second of wall time, by one server process. */
  perSecond: number;
  /** CPU the server process used meanwhile (all its threads), in cores: 1.5 = one and a half. */
  cores: number;
  /** perSecond ÷ cores: the figure per vCPU. */
  perCore: number;
  /** Its ceiling per core (undefined for the authenticated request, which has none) and perCore ÷ it. */
  ceilingPerCore?: number;
  ratio?: number;
  requests: number;
  failed: number;
}

/**
 * `authsvc bench`: a fresh server (one process, the serve stack) on a scratch database, loaded from a
 * thread of the same process, figures per core with their ceilings measured in the same run.
 */
export function benchCommand(io: CliIO): Command {
  const cmd = new Command("bench")
    .description("measure this machine: password sign-ins, refreshes and authenticated requests per second and per core, on a scratch database, with their ceilings")
    .option("--duration <seconds>", "seconds of load per figure", "10")
    .option("--connections <n>", "concurrent connections for refresh and the authenticated request (sign-in uses twice the hashing threads)", "32")
    .option("--database-url <url>", "a PostgreSQL URL: run on a scratch schema there (dropped at the end) instead of a temporary SQLite file")
    .option("--json", "print the report as JSON (fields in docs/performance.md)");
  // The server's settings as serve would have them (bcrypt cost, hashing threads, lifetimes), from
  // the flags, the environment and the config file; the database is always a scratch one.
  addConfigOptions(cmd, "common");
  return cmd.action(async (flags: Record<string, unknown> & { duration: string; connections: string; databaseUrl?: string; json?: boolean }) => {
    const seconds = Number(flags.duration);
    const connections = Number(flags.connections);
    if (!(seconds > 0 && seconds <= 3600)) throw new CliError("--duration must be a number of seconds between 0 and 3600", 2);
    if (!(Number.isInteger(connections) && connections >= 1 && connections <= 1000)) throw new CliError("--connections must be a whole number from 1 to 1000", 2);
    if (flags.databaseUrl !== undefined && !isPostgresUrl(flags.databaseUrl)) throw new CliError("--database-url must be a postgres:// URL (without it the bench uses a temporary SQLite file)", 2);
    const { config: base, sources } = configFromFlags(flags, io);
    if (sources.database === "flag") throw new CliError("bench never touches a database of yours: it makes a scratch one (a temporary SQLite file, or a schema of its own with --database-url postgres://…)", 2);
    const report = await runBench(io, { base, cost: base.bcryptCost, seconds, connections, databaseUrl: flags.databaseUrl });
    if (flags.json) io.out(JSON.stringify(report, null, 2));
    else printReport(io, report);
  });
}

async function runBench(io: CliIO, o: { base: Readonly<Config>; cost: number; seconds: number; connections: number; databaseUrl?: string }) {
  const load0 = loadavg()[0];
  const scratch = mkdtempSync(join(tmpdir(), "authsvc-bench-"));
  const schema = `authsvc_bench_${process.pid}_${Date.now().toString(36)}`;
  let database = join(scratch, "bench.db");
  if (o.databaseUrl) { const u = new URL(o.databaseUrl); u.searchParams.set("schema", schema); database = u.toString(); }
  const config: Config = {
    ...o.base, database, bcryptCost: o.cost, port: 0, host: "127.0.0.1", logLevel: "silent",
    // Floods from one address are what rate limits stop; nothing leaves the machine (no mail, no catcher).
    rateLimits: false, mailCatcher: false, smtpUrl: undefined, backupDir: undefined, metrics: false, metricsPort: undefined, workers: 1,
  };
  // Stages: ceilings, accounts, then the three loads; the bar moves through them.
  const stages = 5;
  const bar = createProgress(io, "bench");
  const at = (stage: number, within: number, detail: string) => bar.update((stage + Math.min(1, within)) / stages, detail);
  if (!io.stderrTTY) io.err(`bench: ${o.seconds}s per figure on ${o.databaseUrl ? `PostgreSQL (${maskUrlPassword(o.databaseUrl)}, schema ${schema})` : "a temporary SQLite file"}, bcrypt cost ${o.cost}`);

  // Ceilings on one thread of this process, before the server exists: what a core can do of the
  // work a request cannot avoid.
  at(0, 0, "ceiling: bcrypt");
  const ceilingSeconds = Math.min(3, Math.max(0.2, o.seconds / 3));
  const hash = hashSync(PASSWORD, { cost: o.cost });
  const bcryptPerCore = perSecond(() => verifySync(PASSWORD, hash), ceilingSeconds / 2);
  at(0, 0.5, "ceiling: RS256");
  const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const data = "x".repeat(600);
  const rs256PerCore = perSecond(() => createSign("RSA-SHA256").update(data).sign(privateKey), ceilingSeconds / 2);

  const app = await createApp(config, { logger: createLogger("silent") }).catch((err: Error) => { throw new CliError(`cannot open the scratch database: ${err.message}`); });
  let http: Awaited<ReturnType<typeof startHttpServer>> | undefined;
  try {
    await app.migrate();
    await app.start([]);
    http = await startHttpServer(app.http, { port: 0, host: "127.0.0.1", bodyLimit: config.bodyLimit, logger: createLogger("silent") });
    const url = `http://127.0.0.1:${http.port}`;

    // Accounts: one per sign-in connection, signed up through the API (as users would be).
    at(1, 0, "accounts");
    const signinConnections = Math.max(2, 2 * config.hashThreads);
    const bodies: string[] = [];
    let access = "";
    for (let i = 0; i < signinConnections; i++) {
      const body = JSON.stringify({ formFields: [{ id: "email", value: `bench-${i}@example.com` }, { id: "password", value: PASSWORD }] });
      const r = await post(`${url}/auth/signup`, body);
      access = r.headers.get("st-access-token") ?? access;
      bodies.push(body);
      at(1, (i + 1) / signinConnections, "accounts");
    }
    // Refresh tokens: one per connection, from real sign-ins; each is rotated on every refresh.
    const refreshTokens: string[] = [];
    for (let i = 0; i < o.connections; i++) {
      const r = await post(`${url}/auth/signin`, bodies[i % bodies.length]);
      refreshTokens.push(r.headers.get("st-refresh-token") ?? "");
    }

    const measure = async (stage: number, label: string, spec: Parameters<typeof runLoad>[0], ceilingPerCore?: number): Promise<Figure> => {
      const cpu0 = process.cpuUsage();
      const t0 = performance.now();
      const r: LoadResult = await runLoad(spec, (n) => at(stage, (performance.now() - t0) / 1000 / o.seconds, `${label}: ${n} answers`));
      const used = process.cpuUsage(cpu0);
      // The server's CPU: the whole process's (event loop, hashing and signing threads) less the load thread's.
      const serverMs = Math.max(1, (used.user + used.system) / 1000 - r.loadThreadCpuMs);
      const rate = r.ok / r.seconds;
      const cores = serverMs / 1000 / r.seconds;
      const fig: Figure = { perSecond: rate, cores, perCore: rate / cores, requests: r.ok, failed: r.failed };
      if (ceilingPerCore) Object.assign(fig, { ceilingPerCore, ratio: fig.perCore / ceilingPerCore });
      if (!io.stderrTTY) io.err(`bench: ${label}: ${rate.toFixed(1)}/s, ${fig.perCore.toFixed(1)}/s per core`);
      return fig;
    };
    const signin = await measure(2, "password sign-ins", { url, kind: "signin", connections: signinConnections, seconds: o.seconds, bodies }, bcryptPerCore);
    const refresh = await measure(3, "refreshes", { url, kind: "refresh", connections: o.connections, seconds: o.seconds, refreshTokens }, rs256PerCore);
    const authenticated = await measure(4, "authenticated requests", { url, kind: "get", connections: o.connections, seconds: o.seconds, accessToken: access });
    bar.end();
    return {
      version: describeVersion(),
      machine: { cpus: availableParallelism(), cpuModel: cpus()[0]?.model ?? "unknown", loadAverageBefore: round(load0), loadAverageAfter: round(loadavg()[0]) },
      database: o.databaseUrl ? "postgres" : "sqlite",
      bcryptCost: o.cost,
      hashThreads: config.hashThreads,
      durationSeconds: o.seconds,
      connections: { signin: signinConnections, refresh: o.connections, authenticated: o.connections },
      ceilings: { bcryptVerifyPerCore: bcryptPerCore, rs256SignPerCore: rs256PerCore },
      signin, refresh, authenticated,
    };
  } finally {
    bar.end();
    if (http) await http.stop(1000);
    if (o.databaseUrl) await sql.raw(`drop schema if exists "${schema}" cascade`).execute(app.store.db).catch(() => {});
    await app.close();
    rmSync(scratch, { recursive: true, force: true });
  }
}

/**
 * Calls of `op` per CPU-second of this thread, for about `seconds` of wall time: per core, like the
 * server's figures (a busy machine slows the wall clock, not the work per CPU-second). Nothing else
 * in the process runs meanwhile, so the process's CPU time is this thread's.
 */
function perSecond(op: () => unknown, seconds: number): number {
  let n = 0;
  const cpu0 = process.cpuUsage();
  const end = performance.now() + seconds * 1000;
  do { op(); n++; } while (performance.now() < end);
  const used = process.cpuUsage(cpu0);
  return n / Math.max(1e-3, (used.user + used.system) / 1e6);
}

async function post(url: string, body: string): Promise<Response> {
  const r = await fetch(url, { method: "POST", headers: { "content-type": "application/json", "st-auth-mode": "header" }, body });
  if (r.status !== 200) throw new CliError(`bench: ${new URL(url).pathname} answered ${r.status}: ${await r.text()}`);
  return r;
}

const round = (n: number) => Math.round(n * 100) / 100;
const fmt = (n: number) => (n >= 100 ? Math.round(n).toLocaleString("en-US") : n.toFixed(1));

function printReport(io: CliIO, r: Awaited<ReturnType<typeof runBench>>): void {
  io.out(`${r.version}; ${r.machine.cpus} vCPUs (${r.machine.cpuModel}); load average ${r.machine.loadAverageBefore} → ${r.machine.loadAverageAfter}`);
  io.out(`${r.database === "postgres" ? "PostgreSQL" : "SQLite"}, one process, bcrypt cost ${r.bcryptCost}, ${r.hashThreads} hashing threads, ${r.durationSeconds}s per figure`);
  const rows: string[][] = [["figure", "per second", "CPU (cores)", "per core", "ceiling per core", "ratio"]];
  const row = (name: string, f: Figure, ceiling: string) =>
    rows.push([name, fmt(f.perSecond), f.cores.toFixed(2), fmt(f.perCore), f.ceilingPerCore ? `${fmt(f.ceilingPerCore)} (${ceiling})` : "", f.ratio === undefined ? "" : f.ratio.toFixed(2)]);
  row("password sign-ins", r.signin, `bcrypt verify, cost ${r.bcryptCost}`);
  row("refreshes", r.refresh, "RS256 signature");
  row("authenticated requests", r.authenticated, "");
  const widths = rows[0].map((_, c) => Math.max(...rows.map((x) => x[c].length)));
  for (const [i, x] of rows.entries()) {
    io.out(x.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]) : cell.padStart(widths[c]))).join("  ").trimEnd());
    if (i === 0) io.out(widths.map((w) => "-".repeat(w)).join("  "));
  }
  const failed = r.signin.failed + r.refresh.failed + r.authenticated.failed;
  if (failed) io.out(`warning: ${failed} requests were not answered 200`);
}
