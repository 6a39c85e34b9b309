// Bench: sign-in against an imported Argon2id hash (OWASP's parameters: m=19456 KiB, t=2, p=1), over
// HTTP through `authsvc serve`, as a ratio to that hash's own ceiling measured in the same run: the
// same hash verified directly with @node-rs/argon2 at the same concurrency. Each sign-in is a user's
// first (its hash is then replaced by authsvc's bcrypt, in the same transaction, as for a real move):
// so every request does verify + upgrade, and every user signs in once.
// Usage: node scripts/build.mjs && node scripts/bench/imported-hash.mjs [--quick]
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { hash, verify } from "@node-rs/argon2";
import { startAuthsvc } from "../bench-lib/servers.mjs";

const root = fileURLToPath(new URL("../..", import.meta.url));
const run$ = promisify(execFile);
const PASSWORD = "a long benchmark passphrase";
const CONCURRENCY = 4;
const BCRYPT_COST = 10; // the production minimum: what the upgrade at first sign-in costs

/** Runs `task(i)` for i in [0, n) with `CONCURRENCY` in flight; returns the rate per second. */
async function rate(n, task) {
  let next = 0;
  const t0 = process.hrtime.bigint();
  await Promise.all(Array.from({ length: CONCURRENCY }, async () => { while (next < n) await task(next++); }));
  return n / (Number(process.hrtime.bigint() - t0) / 1e9);
}

export default async function run({ quick = false, log = () => {} } = {}) {
  const n = quick ? 40 : 200;
  const dir = mkdtempSync(join(tmpdir(), "authsvc-bench-imported-"));
  let server;
  try {
    const argon = await hash(PASSWORD, { algorithm: 2, memoryCost: 19456, timeCost: 2, parallelism: 1 });
    const file = join(dir, "users.jsonl");
    writeFileSync(file, Array.from({ length: n }, (_, i) => JSON.stringify({ id: `a${i}`, email: `argon${i}@example.com`, passwordHash: argon })).join("\n") + "\n");
    const db = join(dir, "imported.db");
    await run$(process.execPath, [join(root, "bin", "authsvc"), "migrate", "--database", db, "--log-level", "error"], { cwd: root });
    await run$(process.execPath, [join(root, "bin", "authsvc"), "users", "import", file, "--database", db, "--log-level", "error"], { cwd: root });
    server = await startAuthsvc(db, { bcryptCost: BCRYPT_COST });
    const body = (i) => JSON.stringify({ formFields: [{ id: "email", value: `argon${i}@example.com` }, { id: "password", value: PASSWORD }] });
    const signIn = async (i) => {
      const res = await fetch(`${server.url}/auth/signin`, { method: "POST", headers: { "content-type": "application/json", rid: "emailpassword" }, body: body(i) });
      const json = await res.json();
      if (json.status !== "OK") throw new Error(`sign-in ${i}: ${JSON.stringify(json)}`);
    };
    // Ceiling first, then the sign-ins, then the ceiling again: the median-free mean of the two ceilings.
    const ceiling1 = await rate(n, async () => { if (!(await verify(argon, PASSWORD))) throw new Error("argon2 verify failed"); });
    const signins = await rate(n, signIn);
    const ceiling2 = await rate(n, async () => { await verify(argon, PASSWORD); });
    const ceiling = (ceiling1 + ceiling2) / 2;
    log(`imported argon2id sign-in: ${signins.toFixed(1)}/s; argon2id verify ceiling: ${ceiling.toFixed(1)}/s (${ceiling1.toFixed(1)}, ${ceiling2.toFixed(1)})`);
    return [{
      scenario: `first sign-in on an imported Argon2id hash (m=19456, t=2, p=1; upgrade to bcrypt cost ${BCRYPT_COST}), ${CONCURRENCY} in flight, SQLite`,
      figure: "throughput", value: +signins.toFixed(1), unit: "sign-ins/s",
      ceiling: "the same hash verified with @node-rs/argon2, same concurrency", ceilingValue: +ceiling.toFixed(1), ratio: +(signins / ceiling).toFixed(3),
    }];
  } finally {
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(JSON.stringify(await run({ quick: process.argv.includes("--quick"), log: console.error }), null, 2));
