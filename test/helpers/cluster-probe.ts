import { spawn } from "node:child_process";
import { readdirSync, readFileSync, readlinkSync } from "node:fs";
import { request } from "node:http";
import { BIN } from "./bin.js";

// Tools for the fault tests of `serve --workers N`: a detached server (its own process group, as a
// terminal or systemd runs it), its processes, and clients that open a new connection per request.

export type Outcome = "answered" | "closed" | "refused" | "unanswered";

/** One GET on a new connection: answered (any status), closed (reset, hang-up), refused, or unanswered within `timeoutMs`. */
export function probe(port: number, path = "/healthz", timeoutMs = 30_000): Promise<Outcome> {
  return new Promise((resolve) => {
    let settled = false;
    const done = (o: Outcome) => { if (!settled) { settled = true; clearTimeout(timer); req.destroy(); resolve(o); } };
    const req = request({ host: "127.0.0.1", port, path, agent: false }, (res) => { res.resume(); res.on("end", () => done("answered")); res.on("error", () => done("closed")); });
    const timer = setTimeout(() => done("unanswered"), timeoutMs);
    req.on("error", (err: NodeJS.ErrnoException) => done(err.code === "ECONNREFUSED" ? "refused" : "closed"));
    req.end();
  });
}

/** The child processes of `pid` (its HTTP workers). */
export function childrenOf(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

/** How many file descriptors `pid` holds. */
export function descriptorsOf(pid: number): number {
  return readdirSync(`/proc/${pid}/fd`).length;
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return !readFileSync(`/proc/${pid}/stat`, "utf8").includes(") Z ");
  } catch {
    return false;
  }
}

/** Starts the built `bin/authsvc serve` in a process group of its own; `stderr` grows as it writes. */
export function spawnServe(args: string[], env: Record<string, string> = {}) {
  const child = spawn(process.execPath, [BIN, "serve", ...args], {
    detached: true,
    env: { PATH: process.env.PATH, AUTHSVC_BCRYPT_COST: "4", AUTHSVC_LOG_LEVEL: "info", ...env },
    stdio: ["ignore", "ignore", "pipe"],
  });
  const out = { stderr: "" };
  child.stderr!.on("data", (d) => { out.stderr += d; });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on("exit", (code, signal) => resolve({ code, signal })));
  const killAll = () => {
    for (const pid of [child.pid!, ...childrenOf(child.pid!)]) { try { process.kill(pid, "SIGKILL"); } catch { /* gone */ } }
  };
  return { child, out, exited, killAll };
}

export async function until(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 60_000, state?: () => string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}${state ? `\n${state()}` : ""}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** /readyz says every worker is ready. */
export async function allWorkersReady(port: number, seen?: { last?: string }): Promise<boolean> {
  try {
    const text = await (await fetch(`http://127.0.0.1:${port}/readyz`)).text();
    if (seen) seen.last = text;
    const body = JSON.parse(text) as { workers?: { ready: number; total: number } };
    return body.workers !== undefined && body.workers.ready === body.workers.total;
  } catch (err) {
    if (seen) seen.last = String(err);
    return false;
  }
}

/**
 * How many connections to the server's `port` the process `pid` holds (its listening socket not
 * counted): read from the kernel's socket tables and the process's descriptors.
 */
export function connectionsHeldBy(pid: number, port: number): number {
  const hex = port.toString(16).toUpperCase().padStart(4, "0");
  const inodes = new Set<string>();
  for (const table of ["/proc/net/tcp", "/proc/net/tcp6"]) {
    for (const line of readFileSync(table, "utf8").split("\n").slice(1)) {
      const f = line.trim().split(/\s+/);
      if (f.length > 9 && f[1].endsWith(`:${hex}`) && f[3] !== "0A") inodes.add(f[9]);
    }
  }
  let held = 0;
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try {
      const m = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
      if (m && inodes.has(m[1])) held++;
    } catch { /* closed meanwhile */ }
  }
  return held;
}
