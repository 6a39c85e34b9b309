import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { hashPool } from "../../src/core/hash-pool.js";
import { lowerHashingPriority } from "../../src/core/hashing-priority.js";
import { hashPassword, verifyPassword } from "../../src/core/passwords.js";

/** nice value of every thread of this process (field 19 of /proc/…/stat). */
function niceByThread(): Map<number, number> {
  const out = new Map<number, number>();
  for (const tid of readdirSync("/proc/self/task")) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/self/task/${tid}/stat`, "utf8");
    } catch (err) {
      // A thread that ended since the listing (an idle hashing thread, say): gone (ENOENT), or gone
      // between the open and the read (ESRCH).
      const code = (err as NodeJS.ErrnoException).code;
      if (code === "ENOENT" || code === "ESRCH") continue;
      throw err;
    }
    out.set(Number(tid), Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[16]));
  }
  return out;
}

describe.runIf(process.platform === "linux")("password hashing priority", () => {
  it("starts no thread until the first hash, then lowers the threads that hash and leaves the event loop's thread alone", async () => {
    const started: boolean[] = [];
    lowerHashingPriority(7, 2, (lowered) => started.push(lowered));
    await new Promise((r) => setTimeout(r, 200));
    expect([...niceByThread().values()].filter((n) => n === 7).length).toBe(0);
    await Promise.all([hashPassword("first", 4), hashPassword("second", 4)]);
    const nice = niceByThread();
    expect(nice.get(process.pid)).toBe(0);
    expect([...nice.values()].filter((n) => n === 7).length).toBe(2);
    expect(started).toEqual([true, true]);
  });

  it("sizes the pool: no more threads than asked, every one lowered, and hashes still verify", async () => {
    lowerHashingPriority(9, 3);
    const hashes = await Promise.all(Array.from({ length: 7 }, (_, i) => hashPassword(`pool password ${i}`, 4)));
    expect([...niceByThread().values()].filter((n) => n === 9).length).toBe(3);
    const checks = await Promise.all(hashes.map((h, i) => verifyPassword(`pool password ${i}`, h, 4)));
    expect(checks.map((c) => c.ok)).toEqual(Array.from({ length: 7 }, () => true));
    expect((await verifyPassword("wrong", hashes[0], 4)).ok).toBe(false);
    expect(hashPool().options.threads).toBe(3);
  });

  it("never runs more hashes at once than the pool has threads (a pool of 1 starts one thread)", async () => {
    const pool = (await import("../../src/core/hash-pool.js")).configureHashPool({ threads: 1, nice: 5 });
    await Promise.all(Array.from({ length: 6 }, (_, i) => hashPassword(`one thread ${i}`, 4)));
    expect(pool.options.threads).toBe(1);
    expect([...niceByThread().values()].filter((n) => n === 5).length).toBe(1);
  });

  it("ends a thread left without work, and starts one again for the next hash", async () => {
    const { configureHashPool } = await import("../../src/core/hash-pool.js");
    configureHashPool({ threads: 1, nice: 6, idleMs: 100 });
    const hashed = await hashPassword("idle thread", 4);
    const threadsAt6 = () => [...niceByThread().values()].filter((n) => n === 6).length;
    expect(threadsAt6()).toBe(1);
    for (let i = 0; i < 100 && threadsAt6() > 0; i++) await new Promise((r) => setTimeout(r, 50));
    expect(threadsAt6()).toBe(0);
    expect((await verifyPassword("idle thread", hashed, 4)).ok).toBe(true);
    expect(threadsAt6()).toBe(1);
  });
});
