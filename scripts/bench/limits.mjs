// What rate limits cost: sign-in p50 and the authenticated GET /auth/user/email/verify throughput,
// limits on (the default machinery; IP budgets raised so the load is counted but never refused) vs
// --no-rate-limits, on one SQLite file each, in the same run. Each worker signs in as its own user
// (as real traffic does), so no address is ever delayed. Short batches alternate off/on and the
// medians of all samples are compared, to cancel drift on a shared machine.
// Usage: node scripts/build.mjs && node scripts/bench/limits.mjs [--quick]
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { Agent, request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build } from "esbuild";
import { rawText } from "../build-info.mjs";

const root = fileURLToPath(new URL("../..", import.meta.url));
const PASSWORD = "a long benchmark passphrase";

/** `authsvc serve` on a SQLite file of its own in `dir`, with extra flags and environment (scripts/bench/webhooks.mjs too). */
export async function startServer(dir, name, extra, env = {}) {
  const database = join(dir, `${name}.db`);
  const child = spawn(process.execPath, [join(root, "bin/authsvc"), "serve", "--port", "0", "--host", "127.0.0.1", "--database", database, "--bcrypt-cost", "10", "--no-mail-catcher", "--log-level", "warn", ...extra], { stdio: ["ignore", "ignore", "pipe"], env: { ...process.env, ...env } });
  const port = await new Promise((resolve, reject) => {
    let buf = "";
    child.stderr.on("data", (d) => { buf += d; const m = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(buf); if (m) resolve(Number(m[1])); });
    child.on("exit", (code) => reject(new Error(`server exited with ${code}: ${buf}`)));
  });
  const agent = new Agent({ keepAlive: true, maxSockets: 64 });
  const call = (method, path, headers = {}, body) => new Promise((resolve, reject) => {
    const data = body === undefined ? undefined : JSON.stringify(body);
    const req = request({ host: "127.0.0.1", port, method, path, agent, headers: { ...(data ? { "content-type": "application/json", "content-length": Buffer.byteLength(data) } : {}), ...headers } }, (res) => {
      let text = "";
      res.on("data", (c) => { text += c; });
      res.on("end", () => resolve({ status: res.statusCode, headers: res.headers, text }));
    });
    req.on("error", reject);
    req.end(data);
  });
  const stop = async () => { agent.destroy(); child.kill("SIGTERM"); await new Promise((r) => child.once("exit", r)); };
  return { call, stop, port };
}

export const creds = (i) => ({ formFields: [{ id: "email", value: `bench${i}@example.com` }, { id: "password", value: PASSWORD }] });

/** `total` requests over `concurrency` workers; returns every latency (ms) and the requests per second. */
export async function load(total, concurrency, fn) {
  const latencies = [];
  let next = 0;
  const started = process.hrtime.bigint();
  await Promise.all(Array.from({ length: concurrency }, async (_, w) => {
    while (next < total) {
      next++;
      const t0 = process.hrtime.bigint();
      const r = await fn(w);
      latencies.push(Number(process.hrtime.bigint() - t0) / 1e6);
      if (r.status !== 200) throw new Error(`unexpected ${r.status}: ${r.text}`);
    }
  }));
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  return { latencies, rps: latencies.length / seconds };
}

/**
 * The decisions alone, in process (no HTTP, no scheduler noise between two servers): what the
 * signin-ip hit, the admission and the settlement of one successful sign-in cost, against one bcrypt
 * verification at cost 10 measured in the same loop. Bundled from src/ with esbuild, as
 * scripts/config-doc.mjs does.
 */
async function measureInProcess(dir, rounds) {
  const entry = join(dir, "in-process.ts");
  const src = (f) => JSON.stringify(join(root, "src", f));
  writeFileSync(entry, `
    import { createApp } from ${src("app.ts")};
    import { testConfig } from ${src("config.ts")};
    import { admitSignIn, enforceLimit, settleSignIn } from ${src("core/limits.ts")};
    import { hashPassword, verifyPassword } from ${src("core/passwords.ts")};
    export async function measure(database, rounds) {
      const app = await createApp(testConfig({ database, bcryptCost: 10, limitSigninIp: "1000000000/1h" }));
      await app.migrate();
      const hash = await hashPassword("a long benchmark passphrase", 10);
      let limits = 0, bcrypt = 0;
      for (let r = 0; r < 20; r++) await settleSignIn(app.ctx, await admitSignIn(app.ctx, "warm@example.com"), true); // JIT warm-up
      for (let r = 0; r < rounds; r++) {
        let t0 = performance.now();
        await enforceLimit(app.ctx, "signin-ip", "127.0.0.1");
        await settleSignIn(app.ctx, await admitSignIn(app.ctx, "bench" + (r % 4) + "@example.com"), true);
        limits += performance.now() - t0;
        t0 = performance.now();
        await verifyPassword("a long benchmark passphrase", hash, 10);
        bcrypt += performance.now() - t0;
      }
      await app.close();
      return { limitsMs: limits / rounds, bcryptMs: bcrypt / rounds };
    }`);
  const cacheDir = join(root, "node_modules", ".cache", "authsvc");
  mkdirSync(cacheDir, { recursive: true });
  const outfile = join(cacheDir, `bench-limits-${process.pid}.mjs`);
  await build({ absWorkingDir: root, entryPoints: [entry], bundle: true, outfile, format: "esm", platform: "node", packages: "external", plugins: [rawText], logLevel: "silent" });
  try {
    return await (await import(pathToFileURL(outfile).href)).measure(join(dir, "in-process.db"), rounds);
  } finally {
    rmSync(outfile, { force: true });
  }
}

export const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

export default async function run({ quick = false, log = () => {} } = {}) {
  // Many short alternating batches (off, on, on, off, …): drift on a shared machine hits both alike.
  const batches = quick ? 4 : 10;
  const signins = quick ? 20 : 30;
  const gets = quick ? 200 : 300;
  const workers = 2;
  const dir = mkdtempSync(join(tmpdir(), "authsvc-bench-limits-"));
  const variants = {
    off: ["--no-rate-limits"],
    on: ["--limit-signin-ip", "1000000000/1h", "--limit-signup-ip", "1000000000/1h"],
  };
  const servers = {};
  const results = { off: { latencies: [], rps: [] }, on: { latencies: [], rps: [] } };
  try {
    for (const [name, flags] of Object.entries(variants)) {
      const s = await startServer(dir, name, flags);
      servers[name] = s;
      for (let i = 0; i < workers; i++) {
        const up = await s.call("POST", "/auth/signup", { "st-auth-mode": "header" }, creds(i));
        if (up.status !== 200) throw new Error(`sign-up failed: ${up.status} ${up.text}`);
        s.access = up.headers["st-access-token"];
      }
    }
    const get = (s, n) => load(n, 16, () => s.call("GET", "/auth/user/email/verify", { authorization: `Bearer ${s.access}` }));
    for (const s of Object.values(servers)) await get(s, 300); // warm-up, not counted
    for (let b = 0; b < batches; b++) {
      for (const name of b % 2 ? ["on", "off"] : ["off", "on"]) {
        const s = servers[name];
        const signin = await load(signins, workers, (w) => s.call("POST", "/auth/signin", { "st-auth-mode": "header" }, creds(w)));
        results[name].latencies.push(...signin.latencies);
        log(`limits ${name} batch ${b + 1}: sign-in p50 ${median(signin.latencies).toFixed(1)} ms`);
      }
    }
    // GETs in many small alternating chunks; throughput = all requests / all time, per variant.
    for (let c = 0; c < batches * 4; c++) {
      for (const name of c % 2 ? ["on", "off"] : ["off", "on"]) {
        const r = await get(servers[name], gets);
        results[name].requests = (results[name].requests ?? 0) + r.latencies.length;
        results[name].seconds = (results[name].seconds ?? 0) + r.latencies.length / r.rps;
      }
    }
    for (const name of ["off", "on"]) results[name].rps.push(results[name].requests / results[name].seconds);
    log(`GET /auth/user/email/verify: off ${Math.round(results.off.rps[0])}/s, on ${Math.round(results.on.rps[0])}/s`);
    results.inProcess = await measureInProcess(dir, quick ? 40 : 200);
    log(`in process: limits ${results.inProcess.limitsMs.toFixed(3)} ms per sign-in, bcrypt ${results.inProcess.bcryptMs.toFixed(1)} ms`);
  } finally {
    for (const s of Object.values(servers)) await s.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  const ip = results.inProcess;
  const on = { p50: median(results.on.latencies), rps: median(results.on.rps) };
  const off = { p50: median(results.off.latencies), rps: median(results.off.rps) };
  return [
    { scenario: "POST /auth/signin, rate limits on (ceiling: off; target ratio < 1.05)", figure: "p50", value: +on.p50.toFixed(2), unit: "ms", ceiling: "same, --no-rate-limits", ceilingValue: +off.p50.toFixed(2), ratio: +(on.p50 / off.p50).toFixed(3) },
    { scenario: "rate-limit decisions of one successful sign-in (signin-ip hit, admission, settlement), in process (ceiling: one bcrypt verify at cost 10)", figure: "mean", value: +ip.limitsMs.toFixed(3), unit: "ms", ceiling: "bcrypt verify, cost 10", ceilingValue: +ip.bcryptMs.toFixed(2), ratio: +(ip.limitsMs / ip.bcryptMs).toFixed(4) },
    { scenario: "GET /auth/user/email/verify with a session, rate limits on (ceiling: off; target ratio ≈ 1)", figure: "throughput", value: Math.round(on.rps), unit: "req/s", ceiling: "same, --no-rate-limits", ceilingValue: Math.round(off.rps), ratio: +(on.rps / off.rps).toFixed(3) },
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(JSON.stringify(await run({ quick: process.argv.includes("--quick"), log: console.error }), null, 2));
