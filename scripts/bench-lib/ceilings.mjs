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

/** bcrypt hash and verify at `cost` with 4 in flight (the server's hashing runs 4 at a time too). */
export async function measureBcrypt(cost, seconds) {
  const hash = await bcrypt.hash("a long benchmark passphrase", { cost });
  return {
    verify: await rate(() => bcrypt.verify("a long benchmark passphrase", hash), 4, seconds),
    hash: await rate(() => bcrypt.hash("a long benchmark passphrase", { cost }), 4, seconds),
  };
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
