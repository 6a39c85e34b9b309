import { afterAll } from "vitest";
import { startServe, type ServeChild } from "../ops/serve-child.js";

export interface OutageServe { child: ServeChild; base: string; log: () => string }

/**
 * For the outage tests: a cleanup list run after the file's tests (the server first, then what it
 * ran on: a database cluster, a mounted disk), and a starter for the built `serve` on a database
 * URL with rate limits off (the clients hammer it from one address) and metrics on the API port.
 */
export function useOutageServe(): { cleanup: Array<() => Promise<void> | void>; start(database: string): Promise<OutageServe> } {
  const cleanup: Array<() => Promise<void> | void> = [];
  afterAll(async () => {
    while (cleanup.length) await cleanup.pop()!();
  });
  return {
    cleanup,
    start: async (database) => {
      // One process: these tests count each outage's log lines, and every process of a --workers
      // cluster notices (and logs) an outage of its own (the cluster itself: test/cli/serve-workers.test.ts).
      const s = await startServe(["--workers", "1", "--database", database, "--no-rate-limits", "--metrics"], cleanup, { AUTHSVC_LOG_LEVEL: "info" });
      return { child: s.child, base: `http://127.0.0.1:${s.port}`, log: s.banner };
    },
  };
}

/** Polls `cond` (every 20 ms) until it holds; fails after `timeoutMs`. */
export async function waitUntil(cond: () => Promise<boolean> | boolean, timeoutMs: number): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await cond())) {
    if (Date.now() > until) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
