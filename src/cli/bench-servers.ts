import { spawn, type ChildProcess } from "node:child_process";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { App } from "../app.js";
import { fileKey, settings, type Config, type ResolvedConfig } from "../config.js";
import { startHttpServer } from "../http/server.js";
import { isSingleExecutable } from "../native/addons.js";
import { createLogger } from "../util/logger.js";

/** The server `authsvc bench` loads: one process (this one), or `serve` child processes. */
export interface BenchServers {
  /** The URLs the load spreads its connections over (round-robin). */
  urls: string[];
  /** True when the server runs in this process: its CPU then includes the load thread's, which the caller takes off. */
  inProcess: boolean;
  /** CPU milliseconds the server has used so far (every thread of every process); NaN where it cannot be read. */
  cpuMs(): number;
  /** Resident memory of each of the server's processes, now and at its peak so far (MB); empty where it cannot be read. */
  memory(): ProcessMemory[];
  start(): Promise<void>;
  /** Stops the server (children: SIGTERM, then SIGKILL of the whole tree); safe to call twice and before start. */
  stop(): Promise<void>;
}

export interface ProcessMemory { pid: number; rssMb: number; peakMb: number }

/** Today's bench: the app (migrated) listens in this process, on its own threads. */
export function inProcessServer(app: App, config: Readonly<Config>): BenchServers {
  let http: Awaited<ReturnType<typeof startHttpServer>> | undefined;
  let stopped = false;
  const servers: BenchServers = {
    urls: [],
    inProcess: true,
    cpuMs: () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; },
    // This process: the server, and the load thread and the ceilings' work beside it.
    memory: () => [{ pid: process.pid, rssMb: process.memoryUsage().rss / 2 ** 20, peakMb: process.resourceUsage().maxRSS / 1024 }],
    start: async () => {
      await app.start([]);
      http = await startHttpServer(app.http, { port: 0, host: "127.0.0.1", bodyLimit: config.bodyLimit, logger: createLogger("silent") });
      servers.urls.push(`http://127.0.0.1:${http.port}`);
      if (stopped) await servers.stop(); // stopped (Ctrl-C) while it started
    },
    stop: async () => { stopped = true; const h = http; http = undefined; if (h) await h.stop(1000); },
  };
  return servers;
}

/** Settings the children never take from the user's flags, environment or config file: the bench sets them (or leaves them off). */
const OVERRIDDEN = new Set<keyof Config>(["database", "port", "host", "workers", "mode", "logLevel", "rateLimits", "mailCatcher", "smtpUrl", "metrics", "metricsPort", "backupDir"]);

/**
 * `instances` × `serve --workers <workers>` as child processes of this executable (bin/authsvc, or
 * the single executable re-running itself), on the scratch database the caller migrated, started
 * one after the other; each is ready when every one of its workers is (/readyz).
 *
 * The children take the bench's own settings as serve would (its config flags, the environment,
 * the config file), with the bench's overrides: no rate limits, no mail (no catcher, no SMTP
 * relay, so development mode: production refuses to start without a relay), no metrics, no
 * backups, silent logs, port 0 on loopback, no migration.
 */
export function childServers(o: { resolved: ResolvedConfig; flags: Record<string, unknown>; env: Record<string, string | undefined>; database: string; workers: number; instances: number; scratch: string }): BenchServers {
  const children: ChildProcess[] = [];
  let stopped = false;
  const { command, prefix } = ownCommandLine();
  const args = [...prefix, "serve", ...serveArgs(o), "--database", o.database, "--port", "0", "--host", "127.0.0.1", "--workers", String(o.workers),
    "--mode", "development", "--log-level", "silent", "--no-rate-limits", "--no-mail-catcher", "--no-metrics", "--no-migrate"];
  const env = { ...o.env };
  for (const s of settings) if (OVERRIDDEN.has(s.key)) delete env[s.env];
  delete env.AUTHSVC_CONFIG;
  const servers: BenchServers = {
    urls: [],
    inProcess: false,
    cpuMs: () => processTreesCpuMs(children.map((c) => c.pid).filter((p): p is number => p !== undefined)),
    memory: () => processTreesMemory(children.map((c) => c.pid).filter((p): p is number => p !== undefined)),
    start: async () => {
      for (let i = 0; i < o.instances && !stopped; i++) {
        const child = spawn(command, args, { env, stdio: ["ignore", "ignore", "pipe"] });
        children.push(child);
        const port = await listeningPort(child);
        if (o.workers > 1) await allWorkersReady(port, child);
        servers.urls.push(`http://127.0.0.1:${port}`);
      }
    },
    stop: async () => { stopped = true; await Promise.all(children.map(stopTree)); },
  };
  return servers;

  /** The bench's config flags as serve's, and its config file without the overridden keys (a copy in the scratch folder). */
  function serveArgs(x: typeof o): string[] {
    const out: string[] = [];
    for (const s of settings) {
      if (!s.flag || OVERRIDDEN.has(s.key)) continue;
      const v = x.flags[fileKey(s)];
      if (typeof v === "boolean") out.push(v ? `--${s.flag}` : `--no-${s.flag}`);
      else if (v !== undefined) out.push(`--${s.flag}`, String(v));
    }
    if (x.resolved.configFile) {
      const file = JSON.parse(readFileSync(x.resolved.configFile, "utf8")) as Record<string, unknown>;
      for (const s of settings) if (OVERRIDDEN.has(s.key)) delete file[fileKey(s)];
      const copy = join(x.scratch, "serve-config.json");
      writeFileSync(copy, JSON.stringify(file), { mode: 0o600 });
      out.push("--config", copy);
    }
    return out;
  }
}

/** How to run this executable again: the single executable is its own program; otherwise Node runs bin/authsvc (argv[1]). */
function ownCommandLine(): { command: string; prefix: string[] } {
  if (isSingleExecutable()) return { command: process.execPath, prefix: [] };
  return { command: process.execPath, prefix: [...process.execArgv, process.argv[1]] };
}

/** The port serve's banner names ("authsvc listening on http://127.0.0.1:PORT"); rejects with its output if it exits first. */
function listeningPort(child: ChildProcess): Promise<number> {
  let text = "";
  return new Promise((resolve, reject) => {
    child.stderr!.on("data", (d) => {
      text += d;
      const m = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(text);
      if (m) resolve(Number(m[1]));
    });
    child.on("error", reject);
    child.on("exit", (code, signal) => reject(new Error(`the bench's serve exited before listening (${signal ?? `code ${code}`}): ${text.trim()}`)));
  });
}

/** Waits until /readyz counts every worker ready (serve forks the others once the first listens). */
async function allWorkersReady(port: number, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (child.exitCode === null && Date.now() < deadline) {
    try {
      const body = await (await fetch(`http://127.0.0.1:${port}/readyz`)).json() as { workers?: { ready: number; total: number } };
      if (body.workers && body.workers.ready === body.workers.total) return;
    } catch { /* still starting */ }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`the bench's serve on port ${port} ${child.exitCode === null ? "did not get all its workers ready in 120s" : "exited while its workers started"}`);
}

/** SIGTERM to serve (it drains its workers), SIGKILL to whatever of its tree is left after 15s. */
async function stopTree(child: ChildProcess): Promise<void> {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  const tree = descendants(child.pid);
  const exited = new Promise<void>((done) => child.once("exit", () => done()));
  child.kill("SIGTERM");
  const late = await Promise.race([exited.then(() => false), new Promise<boolean>((r) => setTimeout(() => r(true), 15_000).unref())]);
  for (const pid of late ? [child.pid, ...tree] : tree) {
    try { process.kill(pid, "SIGKILL"); } catch { /* already gone */ }
  }
}

/**
 * Linux: the CPU time of each process's whole tree (it and its descendants, every thread: utime +
 * stime of /proc/<pid>/stat, in clock ticks of 1/100 s, USER_HZ on every Linux architecture).
 * Elsewhere NaN: the report then says the CPU is unknown.
 */
export function processTreesCpuMs(roots: number[]): number {
  const table = readProcTable();
  if (!table) return NaN;
  let ticks = 0;
  for (const root of roots) for (const pid of [root, ...descendants(root, table)]) ticks += table.get(pid)?.ticks ?? 0;
  return ticks * 10;
}

/** VmRSS and VmHWM (the peak) of every process of the trees under `roots` (Linux /proc; empty elsewhere). */
export function processTreesMemory(roots: number[]): ProcessMemory[] {
  const table = readProcTable();
  if (!table) return [];
  const out: ProcessMemory[] = [];
  for (const root of roots) {
    for (const pid of [root, ...descendants(root, table)]) {
      try {
        const status = readFileSync(`/proc/${pid}/status`, "utf8");
        const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1] ?? NaN);
        out.push({ pid, rssMb: kb("VmRSS") / 1024, peakMb: kb("VmHWM") / 1024 });
      } catch { /* exited meanwhile */ }
    }
  }
  return out;
}

type ProcTable = Map<number, { ppid: number; ticks: number }>;

function readProcTable(): ProcTable | undefined {
  let names: string[];
  try { names = readdirSync("/proc"); } catch { return undefined; }
  const table: ProcTable = new Map();
  for (const name of names) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      // After the command name, which may hold spaces and parentheses: state ppid … utime(14) stime(15).
      const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      table.set(Number(name), { ppid: Number(f[1]), ticks: Number(f[11]) + Number(f[12]) });
    } catch { /* exited meanwhile */ }
  }
  return table;
}

function descendants(root: number, table = readProcTable()): number[] {
  if (!table) return [];
  const out: number[] = [];
  const queue = [root];
  while (queue.length) {
    const parent = queue.shift()!;
    for (const [pid, p] of table) if (p.ppid === parent) { out.push(pid); queue.push(pid); }
  }
  return out;
}
