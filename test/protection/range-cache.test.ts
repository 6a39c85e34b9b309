import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Config } from "../../src/config/types.js";
import { CACHE_MAX, createRangeClient } from "../../src/protection/breached/range.js";
import type { Logger } from "../../src/util/logger.js";
import { startRangeStandIn } from "./range-stand-in.js";

// Bounded growth (issue 51, docs/performance.md "Bounded caches"): the online breached-password
// check keeps the answers of at most a thousand hash prefixes; one more evicts the oldest, so a
// client cycling through prefixes does not grow the server, it only costs lookups again.

const prefix = (p: string) => createHash("sha1").update(p, "utf8").digest("hex").toUpperCase().slice(0, 5);

describe("the breached-password range cache", () => {
  let standIn: Awaited<ReturnType<typeof startRangeStandIn>>;
  beforeAll(async () => { standIn = await startRangeStandIn(["password1"]); });
  afterAll(async () => { await standIn.close(); });

  it("keeps 1,000 prefixes: the 1,001st evicts the oldest, which is asked again; the newest are not", async () => {
    const config = { breachedPasswordsUrl: standIn.url, breachedPasswordsTimeoutMs: 5_000 } as unknown as Config;
    const logger = { info() {}, warn() {} } as unknown as Logger;
    const client = createRangeClient(config, { logger, clock: { now: () => 1_000_000 } });
    // Passwords with CACHE_MAX + 1 different prefixes, in the order they are first asked.
    const passwords: string[] = [];
    const seen = new Set<string>();
    for (let i = 0; passwords.length <= CACHE_MAX; i++) {
      const p = `candidate ${i}`;
      if (!seen.has(prefix(p))) { seen.add(prefix(p)); passwords.push(p); }
    }
    expect(CACHE_MAX).toBe(1000);
    for (const p of passwords) expect(await client.lookup(p)).toBe("not-found");
    expect(standIn.requests.length).toBe(CACHE_MAX + 1);

    // The newest prefix answers from the cache; the oldest was evicted and is asked again.
    expect(await client.lookup(passwords[CACHE_MAX])).toBe("not-found");
    expect(standIn.requests.length).toBe(CACHE_MAX + 1);
    expect(await client.lookup(passwords[0])).toBe("not-found");
    expect(standIn.requests.length).toBe(CACHE_MAX + 2);
    expect(standIn.requests.at(-1)!.path).toBe(`/range/${prefix(passwords[0])}`);
  });
});
