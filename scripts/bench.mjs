// First benchmark: sign-in and the authenticated hot path (GET /auth/user/email/verify), with plain
// http loops on loopback. Starts `bin/authsvc serve` on a temporary SQLite file (or --database URL).
// Usage: node scripts/build.mjs && node scripts/bench.mjs [--requests 2000] [--concurrency 16] [--bcrypt-cost 10]
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { Agent, request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";

const { values: opt } = parseArgs({ options: {
  requests: { type: "string", default: "2000" }, concurrency: { type: "string", default: "16" },
  "bcrypt-cost": { type: "string", default: "10" }, database: { type: "string" },
} });
const total = Math.min(Number(opt.requests), 100_000);
const concurrency = Math.min(Number(opt.concurrency), 256);
const dir = mkdtempSync(join(tmpdir(), "authsvc-bench-"));
const database = opt.database ?? join(dir, "bench.db");
// Rate limits off: 16 concurrent sign-ins of one address from one IP are what they exist to stop.
// What they cost is measured by scripts/bench/limits.mjs (limits on vs off).

const server = spawn(process.execPath, ["bin/authsvc", "serve", "--port", "0", "--host", "127.0.0.1", "--database", database, "--bcrypt-cost", opt["bcrypt-cost"], "--no-mail-catcher", "--log-level", "warn", "--no-rate-limits"], { stdio: ["ignore", "ignore", "pipe"] });
const port = await new Promise((resolve, reject) => {
  let buf = "";
  server.stderr.on("data", (d) => { buf += d; const m = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(buf); if (m) resolve(Number(m[1])); });
  server.on("exit", (code) => reject(new Error(`server exited with ${code}: ${buf}`)));
});
const agent = new Agent({ keepAlive: true, maxSockets: concurrency });

function call(method, path, headers = {}, body) {
  return new Promise((resolve, reject) => {
    const data = body === undefined ? undefined : JSON.stringify(body);
    const req = request({ host: "127.0.0.1", port, method, path, agent, headers: { ...(data ? { "content-type": "application/json", "content-length": Buffer.byteLength(data) } : {}), ...headers } }, (res) => {
      let text = "";
      res.on("data", (c) => { text += c; });
      res.on("end", () => resolve({ status: res.statusCode, headers: res.headers, text }));
    });
    req.on("error", reject);
    req.end(data);
  });
}

async function run(name, fn) {
  const latencies = [];
  let next = 0, failures = 0;
  const started = process.hrtime.bigint();
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (next < total) {
      next++;
      const t0 = process.hrtime.bigint();
      const r = await fn();
      latencies.push(Number(process.hrtime.bigint() - t0) / 1e6);
      if (r.status !== 200) failures++;
    }
  }));
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  latencies.sort((a, b) => a - b);
  const q = (p) => latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))].toFixed(2);
  console.log(JSON.stringify({ name, requests: latencies.length, concurrency, failures, rps: Math.round(latencies.length / seconds), p50ms: q(0.5), p99ms: q(0.99) }));
}

try {
  const creds = { formFields: [{ id: "email", value: "bench@example.com" }, { id: "password", value: "a long benchmark passphrase" }] };
  const up = await call("POST", "/auth/signup", { "st-auth-mode": "header" }, creds);
  if (up.status !== 200) throw new Error(`sign-up failed: ${up.status} ${up.text}`);
  const access = up.headers["st-access-token"];
  await run("POST /auth/signin", () => call("POST", "/auth/signin", { "st-auth-mode": "header" }, creds));
  await run("GET /auth/user/email/verify", () => call("GET", "/auth/user/email/verify", { authorization: `Bearer ${access}` }));
} finally {
  server.kill("SIGTERM");
  agent.destroy();
  await new Promise((r) => server.once("exit", r));
  if (!opt.database) rmSync(dir, { recursive: true, force: true });
}
