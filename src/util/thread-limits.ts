import type { ResourceLimits } from "node:worker_threads";

/**
 * The V8 heap of the server's helper threads (password hashing, JWT signing, SQLite's WAL sync and
 * checkpoints): each is a V8 instance of its own that handles small messages, and with Node's
 * defaults its young generation grows like the main thread's (16 MB semi-spaces). A small young
 * generation takes about 5 MB off each busy thread (docs/performance.md, "Memory"); the old
 * generation's cap is far above what they hold (a few MB), only a bound against a runaway.
 */
export const HELPER_THREAD_LIMITS: ResourceLimits = { maxYoungGenerationSizeMb: 2, maxOldGenerationSizeMb: 64 };
