// Password-reset request timing: known vs unknown address (issue 8 part C, security bar 16/20).
// Starts the built CLI (`node scripts/build.mjs` first) in production mode on a temporary SQLite file
// with a throw-away SMTP relay on loopback, then sends alternating reset requests for a known and an
// unknown address, one at a time, with a pause after each so the work after the answer (token, event,
// mail) is done before the next sample. Figures: the median answer time of each and their ratio
// (known ÷ unknown; 1.00 = indistinguishable). Run alone: node scripts/bench/reset-timing.mjs [--quick]
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { Agent, request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { SMTPServer } from "smtp-server";

const root = fileURLToPath(new URL("../..", import.meta.url));

export default async function run({ quick = false, log = () => {} } = {}) {
  const samples = quick ? 40 : 200; // per address
  const relay = new SMTPServer({ disabledCommands: ["STARTTLS", "AUTH"], logger: false, onData(stream, _s, cb) { stream.resume(); stream.on("end", () => cb(null, "Ok")); } });
  await new Promise((r) => relay.listen(0, "127.0.0.1", r));
  const dir = mkdtempSync(join(tmpdir(), "authsvc-bench-reset-"));
  const server = spawn(process.execPath, [join(root, "bin/authsvc"), "serve", "--mode", "production", "--port", "0", "--host", "127.0.0.1",
    "--public-url", "http://127.0.0.1:3567", "--smtp-url", `smtp://127.0.0.1:${relay.server.address().port}`,
    "--database", join(dir, "bench.db"), "--bcrypt-cost", "10", "--log-level", "warn",
    // 200 requests for the same two addresses are what the per-address mail limit stops; the limit
    // itself does the same work (one counter upsert) for known and unknown addresses.
    "--no-rate-limits"],
  { stdio: ["ignore", "ignore", "pipe"], env: { ...process.env, AUTHSVC_SECRET: "bench-secret-bench-secret-bench-secret-0123" } });
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  try {
    const port = await new Promise((resolve, reject) => {
      let buf = "";
      server.stderr.on("data", (d) => { buf += d; const m = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(buf); if (m) resolve(Number(m[1])); });
      server.on("exit", (code) => reject(new Error(`server exited with ${code}: ${buf}`)));
    });
    const post = (path, body) => new Promise((resolve, reject) => {
      const data = JSON.stringify(body);
      const t0 = process.hrtime.bigint();
      const req = request({ host: "127.0.0.1", port, method: "POST", path, agent, headers: { "content-type": "application/json", "content-length": Buffer.byteLength(data) } }, (res) => {
        let text = "";
        res.on("data", (c) => { text += c; });
        res.on("end", () => resolve({ status: res.statusCode, text, ms: Number(process.hrtime.bigint() - t0) / 1e6 }));
      });
      req.on("error", reject);
      req.end(data);
    });
    const known = "known@example.com";
    const up = await post("/auth/signup", { formFields: [{ id: "email", value: known }, { id: "password", value: "a long benchmark passphrase" }] });
    if (up.status !== 200) throw new Error(`sign-up failed: ${up.status} ${up.text}`);
    const reset = (email) => post("/auth/user/password/reset/token", { formFields: [{ id: "email", value: email }] });
    const pause = () => new Promise((r) => setTimeout(r, 60));
    for (let i = 0; i < 10; i++) { await reset(known); await pause(); await reset("nobody@example.com"); await pause(); } // warm-up
    const times = { known: [], unknown: [] };
    for (let i = 0; i < samples * 2; i++) {
      // Alternate which one goes first in each pair, so neither always follows the other's work.
      const which = (i % 2 === 0) === (Math.floor(i / 2) % 2 === 0) ? "known" : "unknown";
      const r = await reset(which === "known" ? known : "nobody@example.com");
      if (r.status !== 200 || r.text !== '{"status":"OK"}') throw new Error(`unexpected answer ${r.status} ${r.text}`);
      times[which].push(r.ms);
      await pause();
    }
    const median = (a) => { const s = [...a].sort((x, y) => x - y); return (s[(s.length - 1) >> 1] + s[s.length >> 1]) / 2; };
    const mk = median(times.known), mu = median(times.unknown);
    log(`reset request medians: known ${mk.toFixed(3)} ms, unknown ${mu.toFixed(3)} ms over ${samples} samples each`);
    return [
      { scenario: "POST /auth/user/password/reset/token (production mode)", figure: "median, known address", value: +mk.toFixed(3), unit: "ms", ceiling: "median, unknown address", ceilingValue: +mu.toFixed(3), ratio: +(mk / mu).toFixed(3) },
    ];
  } finally {
    server.kill("SIGTERM");
    agent.destroy();
    await new Promise((r) => (server.exitCode !== null ? r() : server.once("exit", r)));
    await new Promise((r) => relay.close(r));
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(JSON.stringify(await run({ quick: process.argv.includes("--quick"), log: console.error }), null, 2));
