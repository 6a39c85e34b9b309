import { configureHashPool, hashPool } from "./hash-pool.js";

/**
 * Sizes the password-hashing pool (core/hash-pool.ts) and runs its threads at a lower CPU priority
 * than the event loop, so a burst of sign-ups on a machine with few cores does not make every other
 * request wait for a time slice: bcrypt gets whatever CPU the requests leave, which on a busy
 * server is nearly all of it. Each thread lowers itself as it starts (Linux only: a thread's nice
 * value is its own there; elsewhere, or if anything is off, the priority stays). All threads are
 * started now so the start-up log can say how many were lowered; returns that number.
 */
export async function lowerHashingPriority(nice = 10, threads = hashPool().options.threads): Promise<number> {
  return configureHashPool({ threads, nice }).warm();
}
