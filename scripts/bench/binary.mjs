// The single executable next to the npm install: its size, and the time from starting `serve` to the
// first 200 from /healthz (median of several starts, the two alternating so drift hits both alike).
// Target: the executable starts within 1.5x of `node bin/authsvc serve`.
// Alone: node scripts/bench/binary.mjs [--quick]
import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../..", import.meta.url));

export default async function run({ quick = false, log = () => {} } = {}) {
  log("binary: building dist/cli.mjs and the single executable");
  execFileSync(process.execPath, ["scripts/build.mjs"], { cwd: root, stdio: "ignore" });
  execFileSync(process.execPath, ["scripts/build-binary.mjs"], { cwd: root, stdio: "ignore" });
  const exe = join(root, "dist", `authsvc-${process.platform}-${process.arch}`);
  const dir = mkdtempSync(join(tmpdir(), "authsvc-bench-binary-"));
  const env = { PATH: process.env.PATH, HOME: dir, XDG_CACHE_HOME: join(dir, "cache"), AUTHSVC_LOG_LEVEL: "warn" };
  const variants = {
    npm: { command: process.execPath, args: [join(root, "bin/authsvc")], database: join(dir, "npm.db") },
    binary: { command: exe, args: [], database: join(dir, "binary.db") },
  };
  const start = (v) => startToHealthz(v.command, [...v.args, "serve", "--port", "0", "--no-mail-catcher", "--database", v.database], env);
  try {
    // The first start of each migrates its database; the executable's also extracts its addons.
    const firstBinary = await start(variants.binary);
    await start(variants.npm);
    const times = { npm: [], binary: [] };
    const runs = quick ? 3 : 9;
    for (let i = 0; i < runs; i++) {
      for (const name of i % 2 ? ["binary", "npm"] : ["npm", "binary"]) times[name].push(await start(variants[name]));
    }
    const npm = median(times.npm);
    const binary = median(times.binary);
    const cache = join(dir, "cache", "authsvc");
    const extracted = readdirSync(cache).flatMap((v) => readdirSync(join(cache, v)).map((f) => statSync(join(cache, v, f)).size)).reduce((a, b) => a + b, 0);
    log(`binary: start-up npm ${times.npm.map((t) => round(t)).join(", ")} ms; executable ${times.binary.map((t) => round(t)).join(", ")} ms`);
    return [
      { scenario: "single executable", figure: "size of dist/authsvc-<os>-<arch>", value: round(statSync(exe).size / 1e6), unit: "MB" },
      { scenario: "single executable", figure: "native addons extracted on first start", value: round(extracted / 1e6), unit: "MB" },
      { scenario: "start-up to /healthz", figure: "npm install (node bin/authsvc serve), median", value: round(npm), unit: "ms" },
      { scenario: "start-up to /healthz", figure: "single executable, median", value: round(binary), unit: "ms", ceiling: "1.5 x npm install's start-up", ceilingValue: round(1.5 * npm), ratio: round(binary / (1.5 * npm), 2) },
      { scenario: "start-up to /healthz", figure: "single executable, first start (extracts the addons, migrates)", value: round(firstBinary), unit: "ms" },
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Milliseconds from spawning `serve` to the first 200 from /healthz; then stops it with SIGTERM. */
async function startToHealthz(command, args, env) {
  const t0 = performance.now();
  const child = spawn(command, args, { env, stdio: ["ignore", "ignore", "pipe"] });
  try {
    const port = await new Promise((resolve, reject) => {
      let buf = "";
      child.stderr.on("data", (d) => { buf += d; const m = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(buf); if (m) resolve(Number(m[1])); });
      child.on("exit", (code) => reject(new Error(`serve exited with ${code} before listening: ${buf}`)));
    });
    const status = await new Promise((resolve, reject) => {
      request({ host: "127.0.0.1", port, path: "/healthz" }, (res) => { res.resume(); res.on("end", () => resolve(res.statusCode)); }).on("error", reject).end();
    });
    if (status !== 200) throw new Error(`/healthz answered ${status}`);
    return performance.now() - t0;
  } finally {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((r) => child.once("exit", r));
      child.kill("SIGTERM");
      await exited;
    }
  }
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const round = (x, digits = 1) => Number(x.toFixed(digits));

if (import.meta.url === `file://${process.argv[1]}`) console.log(JSON.stringify(await run({ quick: process.argv.includes("--quick"), log: console.error }), null, 2));
