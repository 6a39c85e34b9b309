// Operations figures (#12a): what --metrics costs per request, and how fast `authsvc backup` copies
// compared with a plain file copy. Needs the built CLI (node scripts/build.mjs).
// Alone: node scripts/bench/ops.mjs [--quick]
import { execFileSync, spawn } from "node:child_process";
import { copyFileSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { Agent, request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const BIN = join(ROOT, "bin/authsvc");

async function startServer(database, extra) {
  const child = spawn(process.execPath, [BIN, "serve", "--port", "0", "--database", database, "--no-mail-catcher", "--log-level", "warn", ...extra], { stdio: ["ignore", "ignore", "pipe"] });
  const port = await new Promise((resolve, reject) => {
    let buf = "";
    child.stderr.on("data", (d) => { buf += d; const m = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(buf); if (m) resolve(Number(m[1])); });
    child.on("exit", (code) => reject(new Error(`serve exited with ${code}: ${buf}`)));
  });
  return { port, stop: () => new Promise((r) => { child.once("exit", r); child.kill("SIGTERM"); }) };
}

/** Requests per second of GET /healthz (the cheapest route, so the per-request hook weighs most). */
async function healthzRate(port, total, concurrency = 16) {
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
  const get = () => new Promise((resolve, reject) => {
    request({ host: "127.0.0.1", port, path: "/healthz", agent }, (res) => { res.resume(); res.on("end", resolve); }).on("error", reject).end();
  });
  let next = 0;
  const started = process.hrtime.bigint();
  await Promise.all(Array.from({ length: concurrency }, async () => { while (next++ < total) await get(); }));
  agent.destroy();
  return total / (Number(process.hrtime.bigint() - started) / 1e9);
}

export default async function run({ quick = false, log = console.error } = {}) {
  const dir = mkdtempSync(join(tmpdir(), "authsvc-bench-ops-"));
  try {
    const total = quick ? 2000 : 20000;
    const plainDb = join(dir, "plain.db"), metricsDb = join(dir, "metrics.db");
    const plain = await startServer(plainDb, []);
    const withMetrics = await startServer(metricsDb, ["--metrics"]);
    let plainRate = 0, metricsRate = 0;
    try {
      await healthzRate(plain.port, 500); await healthzRate(withMetrics.port, 500); // warm up
      // Alternate rounds so load from other processes hits both alike; keep the best of each.
      for (let i = 0; i < 3; i++) {
        plainRate = Math.max(plainRate, await healthzRate(plain.port, total));
        metricsRate = Math.max(metricsRate, await healthzRate(withMetrics.port, total));
      }
    } finally {
      await plain.stop(); await withMetrics.stop();
    }
    log(`healthz: ${Math.round(plainRate)} req/s plain, ${Math.round(metricsRate)} req/s with --metrics`);

    // A database of some size: the catcher's table padded through SQLite itself.
    const big = join(dir, "big.db");
    execFileSync(process.execPath, [BIN, "migrate", "--database", big], { stdio: "ignore" });
    const Database = (await import("better-sqlite3")).default;
    const db = new Database(big);
    const rows = quick ? 5000 : 50000;
    const insert = db.prepare("insert into caught_mail (received_at, to_address, subject, text_body, headers) values (?, 'a@example.com', 's', ?, '[]')");
    db.transaction(() => { for (let i = 0; i < rows; i++) insert.run(i, "x".repeat(1000)); })();
    db.close();
    const bytes = statSync(big).size;
    const t0 = process.hrtime.bigint();
    copyFileSync(big, join(dir, "copy.db"));
    const copyMs = Number(process.hrtime.bigint() - t0) / 1e6;
    // The time the command reports: online copy, integrity_check, fsync and rename (not process start).
    const report = JSON.parse(execFileSync(process.execPath, [BIN, "backup", join(dir, "backup.db"), "--database", big, "--json"], { encoding: "utf8" }));
    const backupMs = report.ms;
    log(`backup of ${(bytes / 1048576).toFixed(1)} MiB: ${backupMs} ms (online copy, integrity_check, fsync); cp: ${copyMs.toFixed(0)} ms`);
    return [
      { scenario: "GET /healthz with --metrics", figure: "throughput", value: Math.round(metricsRate), unit: "req/s", ceiling: "same without metrics", ceilingValue: Math.round(plainRate), ratio: +(metricsRate / plainRate).toFixed(3) },
      { scenario: `authsvc backup of a ${(bytes / 1048576).toFixed(0)} MiB database`, figure: "time", value: Math.round(backupMs), unit: "ms", ceiling: "copyFileSync of the same file", ceilingValue: Math.round(copyMs), ratio: +(backupMs / copyMs).toFixed(1) },
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(JSON.stringify(await run({ quick: process.argv.includes("--quick"), log: console.error }), null, 2));
