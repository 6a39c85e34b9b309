// What the bot check costs the server: POST /auth/signup with --captcha pow (each request carries a
// fresh solution, which is checked and recorded as used) against the same server with --captcha off,
// on one SQLite file each, in the same run. Target: ratio ≥ 0.95 (a check is two HMACs and one
// insert; the sign-up's bcrypt dominates). Short batches alternate off/on, to cancel drift.
// Usage: node scripts/build.mjs && node scripts/bench/captcha.mjs [--quick]
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { solveChallenges } from "../bench-lib/captcha-load.mjs";
import { load, median, startServer } from "./limits.mjs";

const PASSWORD = "a long benchmark passphrase";
const form = (email) => ({ formFields: [{ id: "email", value: email }, { id: "password", value: PASSWORD }] });

export default async function run({ quick = false, log = () => {} } = {}) {
  const batches = quick ? 4 : 10;
  const signups = quick ? 20 : 40;
  const workers = 4;
  const dir = mkdtempSync(join(tmpdir(), "authsvc-bench-captcha-"));
  const common = ["--no-rate-limits"];
  const variants = { off: [...common, "--captcha", "off"], pow: [...common, "--captcha", "pow", "--captcha-required", "always", "--captcha-difficulty", "1000"] };
  const servers = {};
  const rps = { off: [], pow: [] };
  let n = 0;
  try {
    for (const [name, flags] of Object.entries(variants)) servers[name] = await startServer(dir, name, flags);
    for (let b = 0; b < batches; b++) {
      for (const name of b % 2 ? ["pow", "off"] : ["off", "pow"]) {
        const s = servers[name];
        const solutions = name === "pow" ? await solveChallenges(s.call, signups) : [];
        const r = await load(signups, workers, () => s.call("POST", "/auth/signup", { "st-auth-mode": "header", ...(name === "pow" ? { "authsvc-captcha": solutions.pop() } : {}) }, form(`u${n++}@example.com`)));
        rps[name].push(r.rps);
        log(`captcha ${name} batch ${b + 1}: ${r.rps.toFixed(1)} sign-ups/s`);
      }
    }
  } finally {
    for (const s of Object.values(servers)) await s.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  const pow = median(rps.pow);
  const off = median(rps.off);
  return [
    { scenario: "POST /auth/signup with the proof-of-work check (--captcha pow, a fresh solution each; ceiling: --captcha off; target ratio ≥ 0.95)", figure: "throughput", value: +pow.toFixed(1), unit: "req/s", ceiling: "same, --captcha off", ceilingValue: +off.toFixed(1), ratio: +(pow / off).toFixed(3) },
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(JSON.stringify(await run({ quick: process.argv.includes("--quick"), log: console.error }), null, 2));
