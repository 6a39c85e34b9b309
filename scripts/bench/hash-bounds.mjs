// Bench: what one sign-in costs against an imported hash at its format's bound (core/hash-formats/,
// the bounds table of docs/moving-in.md), over HTTP through `authsvc serve` (bcrypt cost 4, so the
// timing pad and the server's own work stay small), each a ratio to one bcrypt check at cost 14
// measured in the same run (@node-rs/bcrypt, the same library and machine): the bounds are meant to
// keep every format at about that. A wrong password is sent, so every sign-in verifies and none
// re-hashes; the hashes are well-formed with random bytes (PBKDF2, scrypt, Argon2 and phpass compute
// in full before comparing), and real ones for bcrypt, whose library refuses a malformed hash early.
// Usage: node scripts/build.mjs && node scripts/bench/hash-bounds.mjs [--quick]
import { execFile } from "node:child_process";
import { createHmac, randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { hash as bcryptHash, verify as bcryptVerify } from "@node-rs/bcrypt";
import { startAuthsvc } from "../bench-lib/servers.mjs";

const root = fileURLToPath(new URL("../..", import.meta.url));
const run$ = promisify(execFile);
const b64 = (n) => randomBytes(n).toString("base64").replace(/=+$/, "");
const ITOA64 = "./0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const aspnetV3 = (prf, iterations) => Buffer.concat([Buffer.from([1]), ...[prf, iterations, 16].map((n) => { const b = Buffer.alloc(4); b.writeUInt32BE(n); return b; }), randomBytes(16), randomBytes(32)]).toString("base64");

/** Each format at its bound (the constants of src/core/hash-formats/), named as in the docs' table. */
async function hashesAtBounds() {
  const bcrypt14 = await bcryptHash("x", { cost: 14 });
  const wp = "$wp" + (await bcryptHash(createHmac("sha384", "wp-sha384").update("x").digest("base64"), { cost: 14 })).replace(/^\$2b/, "$2y");
  return {
    "bcrypt, cost 14": bcrypt14,
    "WordPress $wp$, bcrypt cost 14": wp,
    "phpass, 2^19 ($P$H)": `$P$${ITOA64[19]}${"s".repeat(8)}${"h".repeat(22)}`,
    "PBKDF2-SHA1, 1,600,000": `$pbkdf2-sha1$i=1600000$${b64(16)}$${b64(20)}`,
    "PBKDF2-SHA256, 3,000,000": `$pbkdf2-sha256$i=3000000$${b64(16)}$${b64(32)}`,
    "PBKDF2-SHA512, 1,200,000": `$pbkdf2-sha512$i=1200000$${b64(16)}$${b64(64)}`,
    "PBKDF2-MD5, 2,000,000": `$pbkdf2-md5$i=2000000$${b64(16)}$${b64(16)}`,
    "PBKDF2-RIPEMD160, 800,000": `$pbkdf2-ripemd160$i=800000$${b64(16)}$${b64(20)}`,
    "PBKDF2-SHA3-384 (Kratos' sha384), 600,000": `$pbkdf2-sha3-384$i=600000$${b64(16)}$${b64(48)}`,
    "ASP.NET Identity v3, HMAC-SHA512 1,200,000": aspnetV3(2, 1_200_000),
    "Argon2id, m×t = 2^20 (256 MiB, t=4)": `$argon2id$v=19$m=262144,t=4,p=1$${b64(16)}$${b64(32)}`,
    "scrypt, N·r·p = 2^21 (N=2^18, r=8)": `$scrypt$ln=18,r=8,p=1$${b64(16)}$${b64(32)}`,
    "Auth0 scrypt, N·r·p = 2^21": "$auth0$" + JSON.stringify({ algorithm: "scrypt", hash: { value: randomBytes(32).toString("hex"), encoding: "hex" }, salt: { value: "salt" }, keylen: 32, cost: 2 ** 18, blockSize: 8 }),
    "salted digest (Auth0 sha512, LDAP {SSHA512}…)": "$auth0$" + JSON.stringify({ algorithm: "sha512", hash: { value: randomBytes(64).toString("hex"), encoding: "hex" }, salt: { value: "salt" } }),
  };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
async function timed(task) { const t0 = process.hrtime.bigint(); await task(); return Number(process.hrtime.bigint() - t0) / 1e6; }

export default async function run({ quick = false, log = () => {} } = {}) {
  const rounds = quick ? 1 : 3;
  const dir = mkdtempSync(join(tmpdir(), "authsvc-bench-bounds-"));
  let server;
  try {
    const hashes = await hashesAtBounds();
    const names = Object.keys(hashes);
    const file = join(dir, "users.jsonl");
    writeFileSync(file, names.map((n, i) => JSON.stringify({ id: `b${i}`, email: `b${i}@example.com`, passwordHash: hashes[n] })).join("\n") + "\n");
    const db = join(dir, "bounds.db");
    await run$(process.execPath, [join(root, "bin", "authsvc"), "migrate", "--database", db, "--log-level", "error"], { cwd: root });
    const imported = JSON.parse((await run$(process.execPath, [join(root, "bin", "authsvc"), "users", "import", file, "--json", "--database", db, "--log-level", "error"], { cwd: root })).stdout);
    if (imported.created !== names.length) throw new Error(`import created ${imported.created} of ${names.length}: ${JSON.stringify(imported.refusedRows)}`);
    server = await startAuthsvc(db, { bcryptCost: 4 });
    const signIn = (i) => timed(async () => {
      const res = await fetch(`${server.url}/auth/signin`, { method: "POST", headers: { "content-type": "application/json", rid: "emailpassword" }, body: JSON.stringify({ formFields: [{ id: "email", value: `b${i}@example.com` }, { id: "password", value: "a wrong password" }] }) });
      const json = await res.json();
      if (json.status !== "WRONG_CREDENTIALS_ERROR") throw new Error(`${names[i]}: ${JSON.stringify(json)}`);
    });
    const ceilingHash = hashes["bcrypt, cost 14"];
    const samples = names.map(() => []), ceiling = [];
    // Interleaved: the ceiling, then each format once, every round.
    for (let r = 0; r < rounds; r++) {
      ceiling.push(await timed(() => bcryptVerify("x", ceilingHash)));
      for (let i = 0; i < names.length; i++) samples[i].push(await signIn(i));
    }
    const c = median(ceiling);
    log(`one bcrypt check at cost 14: ${c.toFixed(0)} ms`);
    return names.map((name, i) => {
      const ms = median(samples[i]);
      log(`${name}: ${ms.toFixed(0)} ms (${(ms / c).toFixed(2)} of bcrypt 14)`);
      return { scenario: `one sign-in against an imported hash at its bound: ${name}`, figure: "time", value: Math.round(ms), unit: "ms", ceiling: "one bcrypt check at cost 14 (@node-rs/bcrypt), same run", ceilingValue: Math.round(c), ratio: +(ms / c).toFixed(2) };
    });
  } finally {
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(JSON.stringify(await run({ quick: process.argv.includes("--quick"), log: console.error }), null, 2));
