import { createSign, generateKeyPairSync } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { availableParallelism, constants as osConstants, cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { hashSync, verifySync } from "@node-rs/bcrypt";
import { Command } from "commander";
import { sql } from "kysely";
import { createApp, type App } from "../app.js";
import type { Config, ResolvedConfig } from "../config/types.js";
import { isPostgresUrl } from "../store/database.js";
import { maskUrlPassword } from "../util/mask-url.js";
import { createLogger } from "../util/logger.js";
import { runLoad, type LoadResult } from "./bench-load.js";
import { childServers, inProcessServer, type BenchServers } from "./bench-servers.js";
import { describeVersion } from "./main.js";
import { CliError, type CliIO } from "./io.js";
import { addConfigOptions, configFromFlags } from "./options.js";
import { createProgress } from "./progress.js";

const PASSWORD = "a long benchmark passphrase";

/** One figure of the report (docs/performance.md, "authsvc bench"). */
interface Figure {
  /** Requests answered 200 per second of wall time, by the whole server (every process). */
  perSecond: number;
  /** CPU the server used meanwhile (all its threads, all its processes), in cores: 1.5 = one and a half; NaN (JSON null) where it cannot be read. */
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
 * `authsvc bench`: a fresh server on a scratch database, loaded from a thread of this process,
 * figures per core with their ceilings measured in the same run. The server is this process (one
 * process, the serve stack), or with --workers / --instances real `serve` child processes
 * (bench-servers.ts), whose CPU is read from their process trees.
 */
export function benchCommand(io: CliIO): Command {
  const cmd = new Command("bench")
    .description("measure this machine: password sign-ins, refreshes and authenticated requests per second and per core, on a scratch database, with their ceilings")
    .option("--duration <seconds>", "seconds of load per figure", "10")
    .option("--connections <n>", "concurrent connections for refresh and the authenticated request (sign-in uses twice the hashing threads)", "32")
    .option("--database-url <url>", "a PostgreSQL URL: run on a scratch schema there (dropped at the end) instead of a temporary SQLite file")
    .option("--instances <n>", "run n separate `serve` processes on the scratch PostgreSQL schema (needs --database-url) and spread the connections over them", "1")
    .option("--json", "print the report as JSON (fields in docs/performance.md)");
  // The server's settings as serve would have them (bcrypt cost, hashing threads, lifetimes), from
  // the flags, the environment and the config file; the database is always a scratch one.
  addConfigOptions(cmd, "common");
  // serve's --workers, which every command accepts, says here how many workers the bench's server runs.
  const workersOption = cmd.options.find((o) => o.long === "--workers");
  if (workersOption) Object.assign(workersOption, { hidden: false, description: "run the server as `serve --workers N`, N worker processes as children of this one (only this flag counts: without it, one process, whatever the environment or config file say)" });
  return cmd.action(async (flags: Record<string, unknown> & { duration: string; connections: string; databaseUrl?: string; instances: string; json?: boolean }) => {
    const seconds = Number(flags.duration);
    const connections = Number(flags.connections);
    const instances = Number(flags.instances);
    if (!(seconds > 0 && seconds <= 3600)) throw new CliError("--duration must be a number of seconds between 0 and 3600", 2);
    if (!(Number.isInteger(connections) && connections >= 1 && connections <= 1000)) throw new CliError("--connections must be a whole number from 1 to 1000", 2);
    if (!(Number.isInteger(instances) && instances >= 1 && instances <= 64)) throw new CliError("--instances must be a whole number from 1 to 64", 2);
    if (flags.databaseUrl !== undefined && !isPostgresUrl(flags.databaseUrl)) throw new CliError("--database-url must be a postgres:// URL (without it the bench uses a temporary SQLite file)", 2);
    if (instances > 1 && flags.databaseUrl === undefined) throw new CliError("--instances needs --database-url postgres://…: a SQLite file takes one serve at a time (use --workers for the cores of one machine)", 2);
    const resolved = configFromFlags(flags, io);
    const { config: base, sources } = resolved;
    if (sources.database === "flag") throw new CliError("bench never touches a database of yours: it makes a scratch one (a temporary SQLite file, or a schema of its own with --database-url postgres://…)", 2);
    const workers = sources.workers === "flag" ? base.workers : 1;
    if ((workers > 1 || instances > 1) && !io.canFork) throw new CliError("bench --workers/--instances starts serve processes: run it from the authsvc command", 2);
    const report = await runBench(io, { base, cost: base.bcryptCost, seconds, connections, databaseUrl: flags.databaseUrl, workers, instances, resolved, flags });
    if (flags.json) io.out(JSON.stringify(report, null, 2));
    else printReport(io, report);
  });
}

interface BenchOptions {
  base: Readonly<Config>; cost: number; seconds: number; connections: number; databaseUrl?: string;
  workers: number; instances: number; resolved: ResolvedConfig; flags: Record<string, unknown>;
}

async function runBench(io: CliIO, o: BenchOptions) {
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
  if (!io.stderrTTY) io.err(`bench: ${o.seconds}s per figure on ${o.databaseUrl ? `PostgreSQL (${maskUrlPassword(o.databaseUrl)}, schema ${schema})` : "a temporary SQLite file"}, ${describeShape(o)}, bcrypt cost ${o.cost}`);
  // Ctrl-C (or SIGTERM) stops the load and the servers, drops the scratch database, and exits 130 (143).
  const interrupted = new AbortController();
  const offSignal = io.onSignal?.((signal) => interrupted.abort(new CliError(`bench: stopped (${signal}); the scratch database was removed`, signalExitCode(signal))));
  const stoppable = <T>(p: Promise<T>) => untilAborted(p, interrupted.signal);
  let app: App | undefined;
  let servers: BenchServers | undefined;
  try {
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

    app = await createApp(config, { logger: createLogger("silent") }).catch((err: Error) => { throw new CliError(`cannot open the scratch database: ${err.message}`); });
    // The children run on the database this process migrated (and drops at the end).
    const srv = servers = o.workers > 1 || o.instances > 1
      ? childServers({ resolved: o.resolved, flags: o.flags, env: io.env, database, workers: o.workers, instances: o.instances, scratch })
      : inProcessServer(app, config);
    await stoppable(app.migrate());
    at(1, 0, "starting the server");
    await stoppable(srv.start().catch((err: Error) => { throw new CliError(`bench: ${err.message}`); }));
    const url = srv.urls[0];

    // Accounts: one per sign-in connection, signed up through the API (as users would be).
    at(1, 0, "accounts");
    const signinConnections = Math.max(2, 2 * config.hashThreads * o.instances);
    const bodies: string[] = [];
    let access = "";
    for (let i = 0; i < signinConnections; i++) {
      const body = JSON.stringify({ formFields: [{ id: "email", value: `bench-${i}@example.com` }, { id: "password", value: PASSWORD }] });
      const r = await stoppable(post(`${url}/auth/signup`, body));
      access = r.headers.get("st-access-token") ?? access;
      bodies.push(body);
      at(1, (i + 1) / signinConnections, "accounts");
    }
    // Refresh tokens: one per connection, from real sign-ins; each is rotated on every refresh.
    const refreshTokens: string[] = [];
    for (let i = 0; i < o.connections; i++) {
      const r = await stoppable(post(`${url}/auth/signin`, bodies[i % bodies.length]));
      refreshTokens.push(r.headers.get("st-refresh-token") ?? "");
    }

    // Idle: the server has started and made the accounts, before any load.
    const idle = srv.memory();
    const measure = async (stage: number, label: string, spec: Omit<Parameters<typeof runLoad>[0], "urls">, ceilingPerCore?: number): Promise<Figure> => {
      const cpu0 = srv.cpuMs();
      const t0 = performance.now();
      const r: LoadResult = await runLoad({ ...spec, urls: srv.urls }, (n) => at(stage, (performance.now() - t0) / 1000 / o.seconds, `${label}: ${n} answers`), interrupted.signal);
      // The server's CPU (event loops, hashing and signing threads): in this process, the whole
      // process's less the load thread's; in children, their process trees'.
      const used = srv.cpuMs() - cpu0 - (srv.inProcess ? r.loadThreadCpuMs : 0);
      const rate = r.ok / r.seconds;
      const cores = Math.max(1, used) / 1000 / r.seconds;
      const fig: Figure = { perSecond: rate, cores, perCore: rate / cores, requests: r.ok, failed: r.failed };
      if (ceilingPerCore) Object.assign(fig, { ceilingPerCore, ratio: fig.perCore / ceilingPerCore });
      if (!io.stderrTTY) io.err(`bench: ${label}: ${rate.toFixed(1)}/s, ${Number.isNaN(cores) ? "CPU unknown" : `${fig.perCore.toFixed(1)}/s per core`}`);
      return fig;
    };
    const signin = await measure(2, "password sign-ins", { kind: "signin", connections: signinConnections, seconds: o.seconds, bodies }, bcryptPerCore);
    const refresh = await measure(3, "refreshes", { kind: "refresh", connections: o.connections, seconds: o.seconds, refreshTokens }, rs256PerCore);
    const authenticated = await measure(4, "authenticated requests", { kind: "get", connections: o.connections, seconds: o.seconds, accessToken: access });
    const after = srv.memory();
    const memory = idle.map((p) => ({ pid: p.pid, idleMb: round(p.rssMb), peakMb: round(after.find((a) => a.pid === p.pid)?.peakMb ?? p.peakMb) }));
    bar.end();
    return {
      version: describeVersion(),
      machine: { cpus: availableParallelism(), cpuModel: cpus()[0]?.model ?? "unknown", loadAverageBefore: round(load0), loadAverageAfter: round(loadavg()[0]) },
      database: o.databaseUrl ? "postgres" : "sqlite",
      workers: o.workers,
      instances: o.instances,
      bcryptCost: o.cost,
      hashThreads: config.hashThreads,
      durationSeconds: o.seconds,
      connections: { signin: signinConnections, refresh: o.connections, authenticated: o.connections },
      ceilings: { bcryptVerifyPerCore: bcryptPerCore, rs256SignPerCore: rs256PerCore },
      signin, refresh, authenticated,
      /** Resident memory per server process (MB): before the loads, and the peak over them (VmHWM; in one process, its maxRSS). */
      memory,
    };
  } finally {
    bar.end();
    await servers?.stop();
    if (app && o.databaseUrl) await sql.raw(`drop schema if exists "${schema}" cascade`).execute(app.store.db).catch(() => {});
    await app?.close();
    rmSync(scratch, { recursive: true, force: true });
    offSignal?.();
  }
}

/** `p`, or the abort's reason as soon as `signal` aborts. */
function untilAborted<T>(p: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    p.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}

/** "one process", "2 workers", "2 instances", "2 instances of 2 workers". */
function describeShape(r: { workers: number; instances: number }): string {
  if (r.instances > 1) return `${r.instances} instances${r.workers > 1 ? ` of ${r.workers} workers` : ""}`;
  return r.workers > 1 ? `${r.workers} workers` : "one process";
}

/** 130 for SIGINT, 143 for SIGTERM, as a shell reports a command a signal stopped. */
function signalExitCode(signal: string): number {
  const n = (osConstants.signals as Record<string, number | undefined>)[signal];
  return n ? 128 + n : 1;
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
/** The CPU figures where this system's process table could not be read (not Linux, children): "unknown". */
const known = (n: number, show: (n: number) => string) => (Number.isFinite(n) ? show(n) : "unknown");
const fmt = (n: number) => (n >= 100 ? Math.round(n).toLocaleString("en-US") : n.toFixed(1));

function printReport(io: CliIO, r: Awaited<ReturnType<typeof runBench>>): void {
  io.out(`${r.version}; ${r.machine.cpus} vCPUs (${r.machine.cpuModel}); load average ${r.machine.loadAverageBefore} → ${r.machine.loadAverageAfter}`);
  io.out(`${r.database === "postgres" ? "PostgreSQL" : "SQLite"}, ${describeShape(r)}, bcrypt cost ${r.bcryptCost}, ${r.hashThreads} hashing threads, ${r.durationSeconds}s per figure`);
  const rows: string[][] = [["figure", "per second", "CPU (cores)", "per core", "ceiling per core", "ratio"]];
  const row = (name: string, f: Figure, ceiling: string) =>
    rows.push([name, fmt(f.perSecond), known(f.cores, (n) => n.toFixed(2)), known(f.perCore, fmt), f.ceilingPerCore ? `${fmt(f.ceilingPerCore)} (${ceiling})` : "", f.ratio === undefined ? "" : known(f.ratio, (n) => n.toFixed(2))]);
  row("password sign-ins", r.signin, `bcrypt verify, cost ${r.bcryptCost}`);
  row("refreshes", r.refresh, "RS256 signature");
  row("authenticated requests", r.authenticated, "");
  const widths = rows[0].map((_, c) => Math.max(...rows.map((x) => x[c].length)));
  for (const [i, x] of rows.entries()) {
    io.out(x.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]) : cell.padStart(widths[c]))).join("  ").trimEnd());
    if (i === 0) io.out(widths.map((w) => "-".repeat(w)).join("  "));
  }
  if (r.memory.length) io.out(`resident memory per process: ${r.memory.map((m) => `${fmt(m.idleMb)} MB idle, ${fmt(m.peakMb)} MB peak`).join("; ")}${r.workers > 1 || r.instances > 1 ? "" : " (this process: the server with the load generator beside it)"}`);
  if (!Number.isFinite(r.signin.cores)) io.out("the servers' CPU could not be read on this system (/proc): the per-core figures are unknown");
  const failed = r.signin.failed + r.refresh.failed + r.authenticated.failed;
  if (failed) io.out(`warning: ${failed} requests were not answered 200`);
}
