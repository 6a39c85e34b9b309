import { generateKeyPairSync, verify } from "node:crypto";
import { describe, expect, it } from "vitest";
import { SigningThread, signRs256 } from "../../src/util/signing-thread.js";

const keyPair = () => generateKeyPairSync("rsa", { modulusLength: 2048 });
const valid = (data: string, signature: string, publicKey: ReturnType<typeof keyPair>["publicKey"]) =>
  verify("RSA-SHA256", Buffer.from(data), publicKey, Buffer.from(signature, "base64url"));

describe("signing thread", () => {
  it("signs concurrent requests with several keys, each with its own key, and the signatures verify", async () => {
    const thread = new SigningThread();
    const [a, b] = [keyPair(), keyPair()];
    const jobs = Array.from({ length: 60 }, (_, i) => ({ data: `header.payload-${i}`, pair: i % 3 ? a : b }));
    const signatures = await Promise.all(jobs.map((j) => signRs256(j.data, j.pair.privateKey, j.pair === a ? "a" : "b", thread)));
    jobs.forEach((j, i) => {
      expect(valid(j.data, signatures[i], j.pair.publicKey)).toBe(true);
      expect(valid(j.data, signatures[i], (j.pair === a ? b : a).publicKey)).toBe(false);
    });
    // A key already sent to the thread is used again without being sent (and still signs right).
    expect(valid("again", await signRs256("again", a.privateKey, "a", thread), a.publicKey)).toBe(true);
    await thread.stop();
  });

  it("keeps signing, on the event loop, once its thread is gone (requests in flight included)", async () => {
    const thread = new SigningThread();
    const { privateKey, publicKey } = keyPair();
    expect(valid("first", await signRs256("first", privateKey, "k", thread), publicKey)).toBe(true);
    const inFlight = signRs256("in flight", privateKey, "k", thread);
    await thread.stop();
    expect(valid("in flight", await inFlight, publicKey)).toBe(true);
    expect(valid("after", await signRs256("after", privateKey, "k", thread), publicKey)).toBe(true);
  });

  it("refuses what cannot be signed with an error, as signing on the loop would, and keeps signing", async () => {
    const thread = new SigningThread();
    const { privateKey, publicKey } = keyPair();
    await expect(signRs256("data", publicKey, "k", thread)).rejects.toThrow(/signing failed/);
    expect(valid("next", await signRs256("next", privateKey, "k", thread), publicKey)).toBe(true);
    await thread.stop();
  });

  it("holds a bounded number of keys by kid however many keys come and go, and signs right after eviction", async () => {
    const thread = new SigningThread();
    const pairs = Array.from({ length: 3 }, keyPair);
    // 300 "rotations" cycling through kids: each kid is a new key to the thread when it comes back.
    for (let i = 0; i < 300; i++) {
      const pair = pairs[i % 3];
      const sig = await signRs256(`data-${i}`, pair.privateKey, `kid-${i}`, thread);
      if (i % 50 === 0) expect(valid(`data-${i}`, sig, pair.publicKey)).toBe(true);
    }
    expect(await thread.countThreadKeys()).toBeLessThanOrEqual(4);
    // Another key under a kid the thread knows replaces it (two databases in one process).
    const sig = await signRs256("replaced", pairs[1].privateKey, "kid-299", thread);
    expect(valid("replaced", sig, pairs[1].publicKey)).toBe(true);
    expect(await thread.countThreadKeys()).toBeLessThanOrEqual(4);
    await thread.stop();
  });
});
