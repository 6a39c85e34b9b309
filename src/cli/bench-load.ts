import { Worker } from "node:worker_threads";

/** What one load run asks for: the requests one connection repeats, as fast as answers come. */
export interface LoadSpec {
  /** The servers: connection i goes to urls[i % urls.length]. */
  urls: string[];
  kind: "signin" | "refresh" | "get";
  connections: number;
  seconds: number;
  /** signin: one `{formFields}` body per connection, used round-robin. */
  bodies?: string[];
  /** refresh: one refresh token per connection (each rotation replaces it). */
  refreshTokens?: string[];
  /** get: the access token. */
  accessToken?: string;
}

export interface LoadResult {
  /** Answers with status 200, and others (or failed requests). */
  ok: number;
  failed: number;
  seconds: number;
  /** CPU milliseconds of the load thread itself, taken off the process's to leave the server's. */
  loadThreadCpuMs: number;
}

/**
 * The load generator: node:http with keep-alive sockets, one loop per connection, in a worker thread
 * of its own (its own event loop, so it never delays the server's), eval'd from this text so it
 * runs the same from the npm build and from the single executable (no file, no devDependency).
 */
const LOAD_THREAD = String.raw`
const { parentPort, workerData: spec } = require("node:worker_threads");
const http = require("node:http");
const { performance } = require("node:perf_hooks");
const targets = spec.urls.map((url) => new URL(url));
const agent = new http.Agent({ keepAlive: true, maxSockets: spec.connections });
const paths = { signin: "/auth/signin", refresh: "/auth/session/refresh", get: "/auth/user/email/verify" };
let ok = 0, failed = 0, stopped = false;
function once(i) {
  return new Promise((resolve) => {
    const headers = { "st-auth-mode": "header" };
    let body;
    if (spec.kind === "signin") { body = spec.bodies[i % spec.bodies.length]; headers["content-type"] = "application/json"; headers["content-length"] = Buffer.byteLength(body); }
    if (spec.kind === "refresh") headers.authorization = "Bearer " + spec.refreshTokens[i];
    if (spec.kind === "get") headers.authorization = "Bearer " + spec.accessToken;
    const u = targets[i % targets.length];
    const req = http.request({ host: u.hostname, port: u.port, method: spec.kind === "get" ? "GET" : "POST", path: paths[spec.kind], headers, agent }, (res) => {
      if (spec.kind === "refresh" && res.statusCode === 200) spec.refreshTokens[i] = res.headers["st-refresh-token"];
      res.resume();
      res.on("end", () => { if (res.statusCode === 200) ok++; else failed++; resolve(); });
    });
    req.on("error", () => { failed++; resolve(); });
    req.end(body);
  });
}
async function connection(i) { while (!stopped) await once(i); }
// This thread's own CPU time: Linux's per-thread schedstat (nanoseconds); elsewhere the time its event
// loop was busy, which is close when the machine has a core free for it.
const fs = require("node:fs");
function cpuMs() {
  try { return Number(fs.readFileSync("/proc/thread-self/schedstat", "utf8").split(" ")[0]) / 1e6; }
  catch { return undefined; }
}
const cpu0 = cpuMs();
const elu0 = performance.eventLoopUtilization();
const t0 = performance.now();
const tick = setInterval(() => parentPort.postMessage({ progress: ok + failed }), 250);
setTimeout(() => { stopped = true; }, spec.seconds * 1000);
Promise.all(Array.from({ length: spec.connections }, (_, i) => connection(i))).then(() => {
  clearInterval(tick);
  const seconds = (performance.now() - t0) / 1000;
  const cpu1 = cpuMs();
  const busy = cpu0 !== undefined && cpu1 !== undefined ? cpu1 - cpu0 : performance.eventLoopUtilization(elu0).active;
  agent.destroy();
  parentPort.postMessage({ done: { ok, failed, seconds, loadThreadCpuMs: busy, refreshTokens: spec.refreshTokens } });
});
`;

/**
 * Runs one load on a thread of its own; `progress` hears the requests answered so far. An abort
 * (Ctrl-C) ends the thread at once and rejects.
 */
export function runLoad(spec: LoadSpec, progress: (answered: number) => void = () => {}, signal?: AbortSignal): Promise<LoadResult & { refreshTokens?: string[] }> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const worker = new Worker(LOAD_THREAD, { eval: true, workerData: spec });
    const onAbort = () => { reject(signal!.reason); void worker.terminate(); };
    signal?.addEventListener("abort", onAbort, { once: true });
    worker.on("message", (m: { progress?: number; done?: LoadResult & { refreshTokens?: string[] } }) => {
      if (m.progress !== undefined) progress(m.progress);
      if (m.done) { signal?.removeEventListener("abort", onAbort); resolve(m.done); void worker.terminate(); }
    });
    worker.on("error", reject);
    worker.on("exit", (code) => { if (code !== 0 && code !== 1) reject(new Error(`the load thread exited with ${code}`)); });
  });
}
