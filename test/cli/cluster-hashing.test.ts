import { afterAll, describe, expect, it } from "vitest";
import { answerHashJob, hashingInPrimary, type HashMessage } from "../../src/cli/cluster-hashing.js";
import { configureHashPool, delegateHashing, hashPool } from "../../src/core/hash-pool.js";
import { hashPassword, verifyPassword } from "../../src/core/passwords.js";

// The two sides of `serve --workers N`'s shared hashing, joined here by a direct channel in place
// of node:cluster's (test/cli/serve-workers.test.ts runs them across real processes): the
// worker's jobs run on the primary's pool, and a worker left without a primary still answers.

afterAll(() => { configureHashPool({ threads: 2, nice: 0 }); });

describe("hashing for a worker on the primary's pool", () => {
  /** A worker side whose messages reach answerHashJob (the primary) unless `primaryUp` is false. */
  function pair() {
    const sent: HashMessage[] = [];
    let primaryUp = true;
    const worker = hashingInPrimary((m) => {
      sent.push(m);
      if (primaryUp) answerHashJob(m, (answer) => setImmediate(() => worker.onMessage(answer)));
    }, () => true);
    return { worker, sent, down: () => { primaryUp = false; } };
  }

  it("hashes and checks passwords through the primary, each answer to its own job", async () => {
    const { worker, sent } = pair();
    delegateHashing(worker);
    const [a, b] = await Promise.all([hashPassword("first passphrase", 4), hashPassword("second passphrase", 4)]);
    expect(await verifyPassword("first passphrase", a, 4)).toMatchObject({ ok: true });
    expect(await verifyPassword("second passphrase", a, 4)).toMatchObject({ ok: false });
    expect(await verifyPassword("second passphrase", b, 4)).toMatchObject({ ok: true });
    expect(sent.map((m) => m.authsvc === "hash-job" && m.op)).toEqual(["hash", "hash", "verify", "verify", "verify"]);
  });

  it("passes the pool's refusal back as an error", async () => {
    const { worker } = pair();
    await expect(worker.hash("x", 99)).rejects.toThrow(/cost/i);
  });

  it("ignores a malformed job and an answer to no job", async () => {
    const replies: HashMessage[] = [];
    answerHashJob({ authsvc: "hash-job", id: 1, op: "rm -rf", a: "x", b: 4 }, (m) => replies.push(m));
    answerHashJob({ authsvc: "hash-job", id: "1", op: "hash", a: "x", b: 4 }, (m) => replies.push(m));
    await new Promise((r) => setTimeout(r, 50));
    expect(replies).toEqual([]);
    const { worker } = pair();
    expect(() => worker.onMessage({ authsvc: "hash-answer", id: 12345, value: true })).not.toThrow();
  });

  it("runs on its own pool the jobs a primary that went away never answered, and those after", async () => {
    const { worker, sent, down } = pair();
    down();
    const pending = worker.hash("orphaned passphrase", 4);
    await new Promise((r) => setTimeout(r, 20));
    expect(sent).toHaveLength(1);
    worker.primaryGone();
    const hash = await pending;
    expect(await hashPool().verify("orphaned passphrase", hash)).toBe(true);
    // Once the channel is closed, a new job does not wait for it.
    const sentToNoOne: HashMessage[] = [];
    const alone = hashingInPrimary((m) => sentToNoOne.push(m), () => false);
    expect(await alone.verify("orphaned passphrase", hash)).toBe(true);
    expect(sentToNoOne).toEqual([]);
  });
});
