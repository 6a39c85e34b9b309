// Ceilings measured in the same run as the scenarios: what the hardware allows for the work each
// request cannot avoid (bcrypt, an RS256 signature, one durable SQLite commit).
import { generateKeyPairSync, sign } from "node:crypto";
import { join } from "node:path";
import bcrypt from "@node-rs/bcrypt";
import Database from "better-sqlite3";

/** Operations per second of `op` with `inFlight` concurrent calls, for `seconds`. */
async function rate(op, inFlight, seconds) {
  const end = performance.now() + seconds * 1000;
  let n = 0;
  const t0 = performance.now();
  await Promise.all(Array.from({ length: inFlight }, async () => { while (performance.now() < end) { await op(); n++; } }));
  return n / ((performance.now() - t0) / 1000);
}

/**
 * bcrypt hash and verify at `cost`, 4 in flight as the server's hashing runs them: 2 verifications
 * and 2 hashes at once for twice `seconds` (as long, and as many of each, as one after the other),
 * each figure twice its rate (the four threads share the CPU alike; a hash and a verification are
 * the same work). Measured one after the other, the first came out about a tenth low on a busy
 * machine (whatever the last load left running hit it alone), which flattered sign-in's ratio and
 * not sign-up's; at once, both meet the same machine.
 */
export async function measureBcrypt(cost, seconds) {
  const stored = await bcrypt.hash("a long benchmark passphrase", { cost });
  const [verify, hash] = await Promise.all([
    rate(() => bcrypt.verify("a long benchmark passphrase", stored), 2, 2 * seconds),
    rate(() => bcrypt.hash("a long benchmark passphrase", { cost }), 2, 2 * seconds),
  ]);
  return { verify: 2 * verify, hash: 2 * hash };
}

/** RS256 signatures per second on one thread (the server signs on its event loop). */
export function measureRs256(seconds) {
  const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const data = Buffer.from("x".repeat(600));
  const end = performance.now() + seconds * 1000;
  const t0 = performance.now();
  let n = 0;
  while (performance.now() < end) { sign("RSA-SHA256", data, privateKey); n++; }
  return n / ((performance.now() - t0) / 1000);
}

/** Commits per second of one small row with WAL + synchronous=FULL, one commit at a time. */
export function measureFsyncCommit(dir, seconds) {
  const db = new Database(join(dir, "fsync.db"));
  db.pragma("journal_mode = WAL");
  db.pragma("synchronous = FULL");
  db.exec("create table if not exists t (id integer primary key, v text)");
  const insert = db.prepare("insert into t (v) values (?)");
  const end = performance.now() + seconds * 1000;
  const t0 = performance.now();
  let n = 0;
  while (performance.now() < end) { insert.run("x".repeat(100)); n++; }
  const r = n / ((performance.now() - t0) / 1000);
  db.close();
  return r;
}
