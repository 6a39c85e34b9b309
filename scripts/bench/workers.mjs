// Every core (issue 25): what `serve --workers` and `--hash-threads` buy on this machine, as ratios
// measured in the same run. The load comes from wrk (a C load generator: little CPU of its own, so
// the server's processes get the cores), one thread.
// - GET /auth/user/email/verify (a session check: JWT + session row) req/s, --workers 2 ÷ --workers 1;
// - server CPU (primary + workers, every thread, from /proc) per 10k of those GETs, 2 ÷ 1;
// - POST /auth/signin req/s with --workers 1 --hash-threads 2 ÷ bcrypt verifications/s with 2 in
//   flight, and the same with --hash-threads 1 (the setting really bounds hashing).
// Runs alternate between the servers compared, and medians are reported, to cancel drift on a shared machine.
// Usage: node scripts/build.mjs && node scripts/bench/workers.mjs [--quick]
import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import bcrypt from "@node-rs/bcrypt";

const root = fileURLToPath(new URL("../..", import.meta.url));
const PASSWORD = "a long benchmark passphrase";
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function startServer(dir, name, cost, extra) {
  const child = spawn(process.execPath, [join(root, "bin/authsvc"), "serve", "--port", "0", "--host", "127.0.0.1", "--database", join(dir, `${name}.db`),
    "--bcrypt-cost", String(cost), "--no-mail-catcher", "--no-rate-limits", "--log-level", "warn", ...extra], { stdio: ["ignore", "ignore", "pipe"] });
  const port = await new Promise((resolve, reject) => {
    let buf = "";
    child.stderr.on("data", (d) => { buf += d; const m = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(buf); if (m) resolve(Number(m[1])); });
    child.on("exit", (code) => reject(new Error(`server exited with ${code}: ${buf}`)));
  });
  const url = `http://127.0.0.1:${port}`;
  const res = await fetch(`${url}/auth/signup`, { method: "POST", headers: { "content-type": "application/json", "st-auth-mode": "header" }, body: JSON.stringify({ formFields: [{ id: "email", value: `${name}@example.com` }, { id: "password", value: PASSWORD }] }) });
  if (res.status !== 200) throw new Error(`sign-up on ${name}: ${res.status}`);
  return {
    url, email: `${name}@example.com`, access: res.headers.get("st-access-token"),
    /** CPU seconds of the server: its own process and its workers, every thread. */
    cpu: () => [child.pid, ...childrenOf(child.pid)].reduce((sum, pid) => sum + cpuSeconds(pid), 0),
    stop: () => new Promise((r) => { child.once("exit", r); child.kill("SIGTERM"); }),
  };
}

function childrenOf(pid) {
  try { return readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim().split(/\s+/).filter(Boolean).map(Number); } catch { return []; }
}
function cpuSeconds(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(f[11]) + Number(f[12])) / 100; // utime + stime, in clock ticks (USER_HZ = 100)
  } catch { return 0; }
}

/** One wrk run; returns { rps, requests, bad }. */
function wrk(url, { seconds, connections, headers = {}, script }) {
  const args = ["-t1", `-c${connections}`, `-d${seconds}s`, "--timeout", "30s", ...Object.entries(headers).flatMap(([k, v]) => ["-H", `${k}: ${v}`]), ...(script ? ["-s", script] : []), url];
  const out = execFileSync("wrk", args, { encoding: "utf8" });
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1]);
  const requests = Number(/(\d+) requests in/.exec(out)?.[1]);
  const bad = Number(/Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1] ?? 0) + Number(/Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(out)?.slice(1).reduce((a, b) => a + Number(b), 0) ?? 0);
  if (!Number.isFinite(rps)) throw new Error(`wrk gave no figure:\n${out}`);
  return { rps, requests, bad };
}

/** bcrypt verifications per second with `inFlight` concurrent calls (the ceiling of a pool of that size). */
async function bcryptRate(cost, inFlight, seconds) {
  const hash = await bcrypt.hash(PASSWORD, { cost });
  const end = performance.now() + seconds * 1000;
  const t0 = performance.now();
  let n = 0;
  await Promise.all(Array.from({ length: inFlight }, async () => { while (performance.now() < end) { await bcrypt.verify(PASSWORD, hash); n++; } }));
  return n / ((performance.now() - t0) / 1000);
}

export default async function workersBench({ quick = false, log = console.error } = {}) {
  try { execFileSync("wrk", ["--version"], { stdio: "ignore" }); } catch (err) { if (err.code === "ENOENT") throw new Error("wrk is not installed (apt-get install -y wrk)"); }
  const runs = quick ? 1 : 3;
  const seconds = quick ? 2 : 6;
  // Cost 8 (server and ceiling alike, so the ratio holds): at 11 a loaded 2-core machine completes
  // too few sign-ins in a run for the figure to mean anything.
  const cost = 8;
  const dir = mkdtempSync(join(tmpdir(), "authsvc-bench-workers-"));
  const started = [];
  try {
    const one = await startServer(dir, "w1", cost, ["--workers", "1"]); started.push(one);
    const two = await startServer(dir, "w2", cost, ["--workers", "2"]); started.push(two);
    const get = { w1: [], w2: [], cpu1: [], cpu2: [] };
    for (let i = 0; i < runs; i++) {
      for (const [key, s] of [["1", one], ["2", two]]) {
        wrk(`${s.url}/auth/user/email/verify`, { seconds: 1, connections: 50, headers: { authorization: `Bearer ${s.access}` } }); // warm-up
        const c0 = s.cpu();
        const r = wrk(`${s.url}/auth/user/email/verify`, { seconds, connections: 50, headers: { authorization: `Bearer ${s.access}` } });
        const cpu = s.cpu() - c0;
        if (r.bad) log(`  warning: GET --workers ${key}: ${r.bad} bad answers of ${r.requests}`);
        get[`w${key}`].push(r.rps);
        get[`cpu${key}`].push((cpu / r.requests) * 10_000);
      }
    }
    for (const s of started.splice(0)) await s.stop();

    const pool2 = await startServer(dir, "p2", cost, ["--workers", "1", "--hash-threads", "2"]); started.push(pool2);
    const pool1 = await startServer(dir, "p1", cost, ["--workers", "1", "--hash-threads", "1"]); started.push(pool1);
    const signin = { p2: [], p1: [], limit: [] };
    for (let i = 0; i < runs; i++) {
      for (const [key, s] of [["p2", pool2], ["p1", pool1]]) {
        const script = join(dir, `${key}.lua`);
        writeFileSync(script, `wrk.method = "POST"\nwrk.headers["Content-Type"] = "application/json"\nwrk.body = '${JSON.stringify({ formFields: [{ id: "email", value: s.email }, { id: "password", value: PASSWORD }] })}'\n`);
        const r = wrk(`${s.url}/auth/signin`, { seconds: seconds + 4, connections: 8, script });
        if (r.bad) log(`  warning: sign-in ${key}: ${r.bad} bad answers of ${r.requests}`);
        signin[key].push(r.rps);
      }
      signin.limit.push(await bcryptRate(cost, 2, Math.min(seconds, 3)));
    }
    const g1 = median(get.w1), g2 = median(get.w2), c1 = median(get.cpu1), c2 = median(get.cpu2);
    const limit = median(signin.limit), s2 = median(signin.p2), s1 = median(signin.p1);
    return [
      { scenario: "GET /auth/user/email/verify, --workers 2 (ceiling: --workers 1; target ≥ 1.4)", figure: "throughput", value: Math.round(g2), unit: "req/s", ceiling: "--workers 1", ceilingValue: Math.round(g1), ratio: +(g2 / g1).toFixed(3), target: "≥ 1.4", pass: g2 / g1 >= 1.4 },
      { scenario: "server CPU per 10k of those GETs, --workers 2 (ceiling: --workers 1; target ≤ 1.1)", figure: "cpu", value: +c2.toFixed(2), unit: "s", ceiling: "--workers 1", ceilingValue: +c1.toFixed(2), ratio: +(c2 / c1).toFixed(3), target: "≤ 1.1", pass: c2 / c1 <= 1.1 },
      { scenario: `POST /auth/signin, --workers 1 --hash-threads 2, 8 connections (ceiling: bcrypt verify at cost ${cost}, 2 in flight; target ≥ 0.9)`, figure: "throughput", value: +s2.toFixed(1), unit: "req/s", ceiling: "bcrypt, 2 in flight", ceilingValue: +limit.toFixed(1), ratio: +(s2 / limit).toFixed(3), target: "≥ 0.9", pass: s2 / limit >= 0.9 },
      { scenario: `POST /auth/signin, --workers 1 --hash-threads 1, 8 connections (ceiling: bcrypt verify at cost ${cost}, 2 in flight; target ≤ 0.55)`, figure: "throughput", value: +s1.toFixed(1), unit: "req/s", ceiling: "bcrypt, 2 in flight", ceilingValue: +limit.toFixed(1), ratio: +(s1 / limit).toFixed(3), target: "≤ 0.55", pass: s1 / limit <= 0.55 },
    ];
  } finally {
    for (const s of started) await s.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const figures = await workersBench({ quick: process.argv.includes("--quick") });
  for (const f of figures) console.log(`${f.scenario}: ${f.value} ${f.unit} vs ${f.ceilingValue} → ${f.ratio} ${f.pass ? "pass" : "FAIL"}`);
}
