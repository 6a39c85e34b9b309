import { readdirSync, readFileSync } from "node:fs";
import { setPriority } from "node:os";
import { hashPassword } from "./passwords.js";

/**
 * Runs the threads that hash passwords (libuv's thread pool, where @node-rs/bcrypt works) at a lower
 * CPU priority than the event loop, so a burst of sign-ups on a machine with few cores does not make
 * every other request wait for a time slice: bcrypt gets whatever CPU the requests leave, which on
 * a busy server is nearly all of it. Linux only (a thread's nice value is its own there); elsewhere,
 * or if anything is off, it does nothing.
 *
 * The pool's threads are not named, so they are found by what they do: a few hashes are run at once
 * and the threads whose CPU time grew (other than the main thread) are the ones lowered.
 * Returns how many threads were lowered.
 */
export async function lowerHashingPriority(nice = 10): Promise<number> {
  if (process.platform !== "linux") return 0;
  try {
    const before = cpuTicksByThread();
    // Cost 10 keeps each hash busy for tens of milliseconds, enough to show in the tick counts.
    await Promise.all(Array.from({ length: 8 }, () => hashPassword("thread pool priority probe", 10)));
    let lowered = 0;
    for (const [tid, ticks] of cpuTicksByThread()) {
      if (tid === process.pid || ticks - (before.get(tid) ?? 0) < 2) continue;
      setPriority(tid, nice);
      lowered++;
    }
    return lowered;
  } catch {
    return 0;
  }
}

/** utime + stime (clock ticks) of every thread of this process. */
function cpuTicksByThread(): Map<number, number> {
  const out = new Map<number, number>();
  for (const tid of readdirSync("/proc/self/task")) {
    try {
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      out.set(Number(tid), Number(fields[11]) + Number(fields[12]));
    } catch { /* the thread ended meanwhile */ }
  }
  return out;
}
