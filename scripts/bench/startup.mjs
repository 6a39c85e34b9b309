// Start-up (issue 31): how long `serve` takes from launch to its first /healthz answer and to its
// banner, with the default workers (one per core; 2 at least, so there is a cluster to measure)
// and with --workers 1, as ratios measured in the same run. Each start is a fresh SQLite database
// (the migrations are part of a first start). Rounds alternate the order (A B, B A, …) and the
// median of the per-round ratios is reported with its spread. Target: default ÷ one worker ≤ 1.5.
// Usage: node scripts/build.mjs && node scripts/bench/startup.mjs [--quick]
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { createServer } from "node:net";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../..", import.meta.url));
const median = (xs) => { const s = [...xs].sort((a, b) => a - b); const m = s.length >> 1; return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2; };
const freePort = () => new Promise((ok, fail) => { const s = createServer().once("error", fail).listen(0, "127.0.0.1", () => { const { port } = s.address(); s.close(() => ok(port)); }); });

/** Launches serve and returns { healthzMs, bannerMs } from the launch, then stops it. */
async function measureStart(dir, name, workers) {
  const port = await freePort();
  const launched = performance.now();
  const child = spawn(process.execPath, [join(root, "bin/authsvc"), "serve", "--port", String(port), "--host", "127.0.0.1", "--database", join(dir, `${name}.db`),
    "--workers", String(workers), "--no-mail-catcher", "--log-level", "warn"], { stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  let bannerMs;
  child.stderr.on("data", (d) => { stderr += d; if (bannerMs === undefined && stderr.includes("authsvc listening")) bannerMs = performance.now() - launched; });
  const exited = new Promise((resolve) => child.once("exit", resolve));
  let healthzMs;
  try {
    while (healthzMs === undefined) {
      if (child.exitCode !== null) throw new Error(`serve --workers ${workers} exited: ${stderr}`);
      const ok = await fetch(`http://127.0.0.1:${port}/healthz`).then((r) => r.ok, () => false);
      if (ok) healthzMs = performance.now() - launched;
      else await new Promise((r) => setTimeout(r, 10));
    }
    while (bannerMs === undefined) await new Promise((r) => setTimeout(r, 10));
  } finally {
    child.kill("SIGTERM");
    await exited;
  }
  return { healthzMs, bannerMs };
}

export default async function run({ quick = false, log = console.error } = {}) {
  const rounds = quick ? 2 : 5;
  const many = Math.max(2, availableParallelism());
  const dir = mkdtempSync(join(tmpdir(), "authsvc-bench-startup-"));
  const ratios = { healthz: [], banner: [] };
  const values = { healthz: { many: [], one: [] }, banner: { many: [], one: [] } };
  try {
    for (let i = 0; i < rounds; i++) {
      const order = i % 2 ? ["one", "many"] : ["many", "one"];
      const got = {};
      for (const which of order) got[which] = await measureStart(dir, `${which}-${i}`, which === "many" ? many : 1);
      for (const k of ["healthz", "banner"]) {
        const key = `${k}Ms`;
        values[k].many.push(got.many[key]);
        values[k].one.push(got.one[key]);
        ratios[k].push(got.many[key] / got.one[key]);
      }
      log(`  round ${i + 1}: /healthz ${got.many.healthzMs.toFixed(0)} vs ${got.one.healthzMs.toFixed(0)} ms, banner ${got.many.bannerMs.toFixed(0)} vs ${got.one.bannerMs.toFixed(0)} ms`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const figure = (k, what) => {
    const ratio = median(ratios[k]);
    return {
      scenario: `start-up, launch → ${what}, --workers ${many} (ceiling: --workers 1; target ≤ 1.5)`, figure: "latency", unit: "ms", ceiling: "--workers 1",
      value: +median(values[k].many).toFixed(0), min: +Math.min(...values[k].many).toFixed(0), max: +Math.max(...values[k].many).toFixed(0),
      ceilingValue: +median(values[k].one).toFixed(0), ratio: +ratio.toFixed(3), ratioMin: +Math.min(...ratios[k]).toFixed(3), ratioMax: +Math.max(...ratios[k]).toFixed(3),
      target: "<= 1.5", pass: ratio <= 1.5,
    };
  };
  return [figure("healthz", "first /healthz answer"), figure("banner", "banner")];
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(JSON.stringify(await run({ quick: process.argv.includes("--quick"), log: console.error }), null, 2));
