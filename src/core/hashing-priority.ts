import { configureHashPool, hashPool, type HashPool } from "./hash-pool.js";

/**
 * Sizes the password-hashing pool (core/hash-pool.ts) and runs its threads at a lower CPU priority
 * than the event loop, so a burst of sign-ups on a machine with few cores does not make every other
 * request wait for a time slice: bcrypt gets whatever CPU the requests leave, which on a busy
 * server is nearly all of it. Each thread lowers itself as it starts (Linux only: a thread's nice
 * value is its own there; elsewhere, or if anything is off, the priority stays). No thread starts
 * now: the first hash starts one (tens of milliseconds, beside a hash of 60–250 ms), so a server
 * that has hashed nothing holds no hashing thread's memory (docs/performance.md).
 */
export function lowerHashingPriority(nice = 10, threads = hashPool().options.threads, onThreadStart?: (lowered: boolean) => void): HashPool {
  return configureHashPool({ threads, nice, onThreadStart });
}
