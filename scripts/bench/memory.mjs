// Memory (issue 51): resident memory of `serve` per process, idle after start and at its peak under
// load, so authsvc's fit on a 256–512 MB machine is a figure in every bench run.
// - idle, `serve --workers 1`: the one process after 35 s without requests (target ≤ 80 MB), and
//   2 s after /readyz (information: the threads a start used end after 30 s idle);
// - idle, `serve` with its default workers, the same two moments: the primary and each worker, and
//   their sum (target ≤ 200 MB);
// - peak under the authenticated GET and the sign-in load, `serve --workers 1`: the process's high-water
//   mark (VmHWM) after each load, minus its idle figure (target ≤ 40 MB per process).
// Each server runs as a user starts it (development mode, the mail catcher on, on port 0), on a fresh
// SQLite file. Linux only (/proc); elsewhere the module reports nothing.
// Usage: node scripts/build.mjs && node scripts/bench/memory.mjs [--quick]
//        AUTHSVC_BENCH_CHECKOUT=<dir> measures the build in another checkout (`--compare` does so).
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../..", import.meta.url));
const password = "a long benchmark passphrase";
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** VmRSS and VmHWM (peak) of a process, in MB. */
export function memoryOf(pid) {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (field) => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1] ?? NaN);
  return { rss: kb("VmRSS") / 1024, peak: kb("VmHWM") / 1024 };
}

/** The process and its children (serve's workers), primary first. */
export function processTree(pid) {
  let children = [];
  try { children = readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim().split(/\s+/).filter(Boolean).map(Number); } catch { /* gone */ }
  return [pid, ...children];
}

/**
 * Starts `serve` of the build in `checkout` and resolves once every worker answers /readyz and the
 * server has then been idle for `settleMs`.
 */
export async function startServe(checkout, dir, name, { workers, cost = 10, settleMs = 2000 } = {}) {
  const args = [join(checkout, "bin/authsvc"), "serve", "--port", "0", "--host", "127.0.0.1", "--database", join(dir, `${name}.db`),
    "--mail-catcher-port", "0", "--no-rate-limits", "--bcrypt-cost", String(cost), "--log-level", "warn"];
  if (workers !== undefined) args.push("--workers", String(workers));
  // The machine's own memory decides the default workers, not an override meant for tests.
  const env = { ...process.env };
  delete env.AUTHSVC_MEMORY_LIMIT;
  const child = spawn(process.execPath, args, { cwd: dir, stdio: ["ignore", "ignore", "pipe"], env });
  let stderr = "";
  const port = await new Promise((resolve, reject) => {
    child.stderr.on("data", (d) => { stderr += d; const m = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(stderr); if (m) resolve(Number(m[1])); });
    child.once("exit", (code) => reject(new Error(`serve exited with ${code}: ${stderr}`)));
  });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    const body = await fetch(`${url}/readyz`).then((r) => (r.ok ? r.json() : null), () => null);
    if (body && (!body.workers || body.workers.ready === body.workers.total)) break;
    if (i > 1200) throw new Error(`serve on ${url} not ready after 60 s`);
    await sleep(50);
  }
  await sleep(settleMs);
  return {
    url, pid: child.pid, banner: stderr,
    processes: () => processTree(child.pid).map((pid) => ({ pid, ...memoryOf(pid) })),
    stop: () => new Promise((resolve) => { if (child.exitCode !== null) return resolve(); child.once("exit", () => resolve()); child.kill("SIGTERM"); }),
  };
}

/** The bench's load generator (scripts/bench-lib/load.mjs) in a process of its own. */
function load(url, kind, extra) {
  const spec = { mode: "throughput", url, kind, connections: 50, seconds: 4, warmupSeconds: 1, password, ...extra };
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(root, "scripts/bench-lib/load.mjs"), JSON.stringify(spec)], { stdio: ["ignore", "pipe", "inherit"] });
    let out = "";
    child.stdout.on("data", (d) => { out += d; });
    child.on("exit", (code) => (code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`load generator exited with ${code}`))));
  });
}

async function signUp(url, email) {
  const res = await fetch(`${url}/auth/signup`, { method: "POST", headers: { "content-type": "application/json", "st-auth-mode": "header" },
    body: JSON.stringify({ formFields: [{ id: "email", value: email }, { id: "password", value: password }] }) });
  if (res.status !== 200) throw new Error(`sign-up answered ${res.status}`);
  return res.headers.get("st-access-token");
}

/**
 * The figures of one build: { idleOne, idleDefault: [per process], peakGet, peakSignin } in MB.
 * `seconds` is the length of each load.
 */
export async function measureMemory(checkout, { seconds = 4, idleMs = 35_000, log = () => {} } = {}) {
  const dir = mkdtempSync(join(tmpdir(), "authsvc-bench-memory-"));
  const out = {};
  try {
    // Both at once (one idle wait for the two); the default one stops before any load.
    const [many, one] = await Promise.all([startServe(checkout, dir, "default"), startServe(checkout, dir, "one", { workers: 1 })]);
    try {
      out.startDefault = many.processes().map((p) => +p.rss.toFixed(1));
      out.startOne = +one.processes()[0].rss.toFixed(1);
      await sleep(idleMs);
      out.idleDefault = many.processes().map((p) => +p.rss.toFixed(1));
    } finally { await many.stop(); }
    try {
      out.idleOne = +one.processes()[0].rss.toFixed(1);
      const access = await signUp(one.url, "get@example.com");
      await signUp(one.url, "signin@example.com");
      const get = await load(one.url, "get", { access, seconds });
      out.peakGet = +one.processes()[0].peak.toFixed(1);
      out.getRps = Math.round(get.rps);
      // 8 connections: the hashing threads busy without a deep queue (as the bench's sign-in load).
      const signin = await load(one.url, "signin", { email: "signin@example.com", connections: 8, seconds });
      out.peakSignin = +one.processes()[0].peak.toFixed(1);
      out.signinRps = +signin.rps.toFixed(1);
    } finally { await one.stop(); }
    log(`  memory: --workers 1 ${out.startOne} MB after start, ${out.idleOne} MB idle; default ${out.startDefault.join(" + ")} MB after start, ${out.idleDefault.join(" + ")} MB idle; peak GET ${out.peakGet}, sign-in ${out.peakSignin} MB`);
    return out;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export default async function run({ quick = false, log = console.error } = {}) {
  if (!existsSync("/proc/self/status")) { log("  memory: no /proc here, skipped"); return []; }
  const checkout = process.env.AUTHSVC_BENCH_CHECKOUT || root;
  const m = await measureMemory(checkout, { seconds: quick ? 2 : 6, log });
  const total = m.idleDefault.reduce((a, b) => a + b, 0);
  const fig = (scenario, value, limit) => ({ scenario, figure: "memory", unit: "MB", value, ...(limit === undefined ? {} : { target: `<= ${limit}`, pass: value <= limit }) });
  const shape = m.idleDefault.length > 1 ? `${m.idleDefault.length - 1} workers` : "one process";
  return [
    fig("resident memory, serve --workers 1, 2 s after start", m.startOne),
    fig("resident memory, serve --workers 1, idle (35 s)", m.idleOne, 80),
    fig(`resident memory, serve (default: ${shape}), 2 s after start, all processes (${m.startDefault.join(" + ")})`, +m.startDefault.reduce((a, b) => a + b, 0).toFixed(1)),
    fig(`resident memory, serve (default: ${shape}), idle (35 s), all processes (${m.idleDefault.join(" + ")})`, +total.toFixed(1), 200),
    fig(`peak resident memory under the authenticated GET (${m.getRps} req/s), serve --workers 1, above idle`, +(m.peakGet - m.idleOne).toFixed(1), 40),
    fig(`peak resident memory under sign-ins (${m.signinRps} req/s), serve --workers 1, above idle`, +(m.peakSignin - m.idleOne).toFixed(1), 40),
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(JSON.stringify(await run({ quick: process.argv.includes("--quick") }), null, 2));
