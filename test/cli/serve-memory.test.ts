import { availableParallelism } from "node:os";
import { afterEach, describe, expect, it } from "vitest";
import { expectedMb, fitWorkers } from "../../src/config/worker-fit.js";
import { detectMemoryLimit, parseMegabytes } from "../../src/util/memory-limit.js";
import { backends } from "../helpers/backends.js";
import { runBin, spawnBin } from "../helpers/bin.js";

// Small machines (issue 51): `serve`'s default workers fit in the memory it may use, and the banner
// says what it chose and why. The limit comes from AUTHSVC_MEMORY_LIMIT here (the override of the
// detected cgroup or machine memory), as a 256 MB plan's cgroup would give it.

type Child = ReturnType<typeof spawnBin>;

/** The banner once the server answers, and /readyz then (it counts the workers, if any). */
async function started(child: Child): Promise<{ port: number; banner: string; ready: { status: string; workers?: { ready: number; total: number } } }> {
  let seen = "";
  const port = await new Promise<number>((resolve, reject) => {
    child.stderr!.on("data", (d) => {
      seen += d;
      const m = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(seen);
      if (m && seen.includes("  memory:")) resolve(Number(m[1]));
    });
    child.on("close", (code) => reject(new Error(`serve exited (${code}) before listening:\n${seen}`)));
  });
  let ready = { status: "" } as { status: string; workers?: { ready: number; total: number } };
  for (const deadline = Date.now() + 60_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 100))) {
    ready = await (await fetch(`http://127.0.0.1:${port}/readyz`)).json() as typeof ready;
    if (!ready.workers || ready.workers.ready === ready.workers.total) break;
  }
  return { port, banner: seen, ready };
}

describe.each(backends)("serve within a memory limit on $name", { timeout: 120_000 }, (backend) => {
  const cleanup: Array<() => Promise<void> | void> = [];
  afterEach(async () => {
    while (cleanup.length) await cleanup.pop()!();
  });
  async function serve(env: Record<string, string>, args: string[] = []) {
    const db = await backend.create();
    cleanup.push(db.drop);
    const child = spawnBin(["serve", "--port", "0", "--mail-catcher-port", "0", "--database", db.url, ...args], { env });
    cleanup.push(async () => { if (child.exitCode === null) { child.kill("SIGTERM"); await child.result; } });
    return { child, ...(await started(child)) };
  }

  it("with 256 MB, runs one process (not a worker per core) and says why in the banner", async () => {
    const { banner, ready, child } = await serve({ AUTHSVC_MEMORY_LIMIT: "256MB" });
    // One process: /readyz counts no workers, and serve has no worker children.
    expect(ready).toEqual({ status: "ok" });
    expect(banner).not.toContain("workers:    ");
    const cores = availableParallelism();
    const line = banner.split("\n").find((l) => l.startsWith("  memory:"));
    expect(line).toBe(cores > 1
      ? `  memory:     one process: not one per core (${cores}): ${cores} workers need about ${expectedMb(cores)} MB under load, more than 256 MB (AUTHSVC_MEMORY_LIMIT); one process needs about ${expectedMb(1)} MB.`
      : `  memory:     one process: one per core (1), about ${expectedMb(1)} MB under load, within 256 MB (AUTHSVC_MEMORY_LIMIT).`);
    expect(banner).not.toContain("WARNING: one process");
    child.kill("SIGTERM");
    expect((await child.result).code).toBe(0);
  });

  it("with 256 MB and an explicit --workers 2, runs 2 workers and warns that they may not fit", async () => {
    const { banner, ready } = await serve({ AUTHSVC_MEMORY_LIMIT: "256MB" }, ["--workers", "2"]);
    expect(ready).toEqual({ status: "ok", workers: { ready: 2, total: 2 } });
    expect(banner).toContain(`  memory:     2 HTTP worker processes as asked (--workers 2), about ${expectedMb(2)} MB under load; may use 256 MB (AUTHSVC_MEMORY_LIMIT).`);
    expect(banner).toContain(`  WARNING: 2 workers are expected to need about ${expectedMb(2)} MB under load, more than the 256 MB (AUTHSVC_MEMORY_LIMIT) this server may use; it may run out of memory. One process would fit.`);
  });
});

describe("memory-aware worker count", () => {
  it("takes a worker per core while they fit, and one process at the least", () => {
    expect(fitWorkers(2, 256)).toBe(1);
    expect(fitWorkers(2, 512)).toBe(2);
    expect(fitWorkers(8, 64)).toBe(1);
    expect(fitWorkers(1, 100_000)).toBe(1);
    for (const limit of [256, 384, 512, 1024, 2048, 4096]) {
      const n = fitWorkers(16, limit);
      if (n > 1) expect(expectedMb(n)).toBeLessThanOrEqual(limit);
      if (n < 16) expect(expectedMb(n + 1)).toBeGreaterThan(limit);
    }
  });

  it("reads the cgroup's limit when there is one, else the machine's memory", () => {
    const GB = 1024 ** 3;
    expect(detectMemoryLimit(256 * 1024 * 1024, 16 * GB)).toEqual({ mb: 256, from: "the cgroup's memory limit" });
    // No limit: Node.js answers 0 or 2^64 (libuv's "unlimited"), or has no answer at all.
    for (const none of [0, 2 ** 64, undefined]) expect(detectMemoryLimit(none, 16 * GB)).toEqual({ mb: 16 * 1024, from: "the machine's memory" });
  });

  it("parses sizes in MB and GB, and refuses anything else with a clear error", async () => {
    expect([parseMegabytes("256"), parseMegabytes("256MB"), parseMegabytes("512m"), parseMegabytes("1G"), parseMegabytes("1.5GiB")]).toEqual([256, 256, 512, 1024, 1536]);
    expect(parseMegabytes("lots")).toBeUndefined();
    const r = await runBin(["config"], { env: { AUTHSVC_MEMORY_LIMIT: "lots" } });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("AUTHSVC_MEMORY_LIMIT");
    expect(r.stderr).toContain("expected a size such as 256MB, 512M or 1G");
  });
});
