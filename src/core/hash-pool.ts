import { availableParallelism } from "node:os";
import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";
import { hash as bcryptHash, verify as bcryptVerify } from "@node-rs/bcrypt";
import { isSingleExecutable, resolveNativeBinding } from "../native/addons.js";
import { Slots } from "../util/slots.js";
import { HELPER_THREAD_LIMITS } from "../util/thread-limits.js";

// A string on purpose: a bundled CLI or a single executable has no worker file at a known path.
// Each thread runs one bcrypt at a time with @node-rs/bcrypt's synchronous API, so the number of
// threads is exactly how many hashes run at once. A thread lowers its own CPU priority first (Linux:
// a thread's nice value is its own; /proc/thread-self names its id). Messages: [id, "hash", input,
// cost], [id, "verify", input, hash] or [id, "phpass", password, stored] (the portable phpass hash of
// the password with the stored hash's salt and count: iterated MD5, which has no asynchronous API);
// answers [id, result] or [id, undefined, error text].
const SOURCE = String.raw`
"use strict";
const { parentPort, workerData } = require("node:worker_threads");
let lowered = false;
if (workerData.nice) {
  try {
    const tid = Number(require("node:fs").readlinkSync("/proc/thread-self").split("/").pop());
    require("node:os").setPriority(tid, workerData.nice);
    lowered = true;
  } catch { /* not Linux, or not allowed: hashing keeps the normal priority */ }
}
let hashSync, verifySync;
if (workerData.nativeBinding) {
  const m = { exports: {} };
  process.dlopen(m, workerData.nativeBinding);
  hashSync = (input, cost) => m.exports.hashSync(input, cost, null, null, false);
  verifySync = (input, hash) => m.exports.verifySync(input, hash);
} else {
  const b = require(workerData.module);
  hashSync = (input, cost) => b.hashSync(input, { cost });
  verifySync = (input, hash) => b.verifySync(input, hash);
}
const ITOA64 = "./0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
function phpass(password, stored) {
  const { createHash } = require("node:crypto");
  const pw = Buffer.from(password, "utf8");
  let count = 1 << ITOA64.indexOf(stored[3]);
  let hash = createHash("md5").update(stored.slice(4, 12), "latin1").update(pw).digest();
  do { hash = createHash("md5").update(hash).update(pw).digest(); } while (--count);
  let out = stored.slice(0, 12), i = 0;
  do {
    let value = hash[i++];
    out += ITOA64[value & 0x3f];
    if (i < 16) value |= hash[i] << 8;
    out += ITOA64[(value >> 6) & 0x3f];
    if (i++ >= 16) break;
    if (i < 16) value |= hash[i] << 16;
    out += ITOA64[(value >> 12) & 0x3f];
    if (i++ >= 16) break;
    out += ITOA64[(value >> 18) & 0x3f];
  } while (i < 16);
  return out;
}
parentPort.postMessage({ ready: true, lowered });
parentPort.on("message", ([id, op, a, b]) => {
  try { parentPort.postMessage([id, op === "hash" ? hashSync(a, b) : op === "phpass" ? phpass(a, b) : verifySync(a, b)]); }
  catch (err) { parentPort.postMessage([id, undefined, String((err && err.message) || err)]); }
});
`;

export interface HashPoolOptions {
  /** Hashes that may run at once in this process (= threads). */
  threads: number;
  /** CPU priority (nice) of the threads on Linux; 0 leaves it. */
  nice: number;
  /** A thread with no hash to do for this long ends (default IDLE_THREAD_MS); the next hash starts one again. */
  idleMs?: number;
  /** Hears each thread that started, and whether it lowered its priority (serve logs it). */
  onThreadStart?: (lowered: boolean) => void;
}

/**
 * Each hashing thread is a V8 instance of its own, 10–15 MB resident: a server that hashes nothing
 * for half a minute gives them back, and the next sign-in starts a thread again (tens of
 * milliseconds, beside a hash of 60–250 ms at the costs used in production).
 */
export const IDLE_THREAD_MS = 30_000;

interface Job { op: "hash" | "verify" | "phpass"; a: string; b: string | number; resolve: (v: unknown) => void; reject: (e: Error) => void }
interface Thread { worker: Worker; job: Job | undefined; idle?: NodeJS.Timeout }

/**
 * bcrypt on a pool of its own (not libuv's, where file I/O and DNS would queue behind hashes, and
 * whose 4 threads would cap hashing at 4 cores on any machine). Threads start on demand up to
 * `threads`, are unref'd while idle (a CLI command exits when done) and end after `idleMs` without
 * work (IDLE_THREAD_MS: their memory goes back), and run at lower CPU priority
 * than the event loop (`nice`) so requests win the CPU while hashing gets what they leave. If a
 * thread cannot start, hashing falls back to @node-rs/bcrypt's own async API: slower, never wrong.
 */
export class HashPool {
  private readonly threads: Thread[] = [];
  private readonly queue: Job[] = [];
  private broken = false;
  private retired = false;
  /** The jobs on a thread, by the id sent with them (util/slots.ts). */
  private readonly pending = new Slots<{ thread: Thread; job: Job }>();

  constructor(readonly options: HashPoolOptions) {}

  hash(input: string, cost: number): Promise<string> {
    return this.run("hash", input, cost) as Promise<string>;
  }

  verify(input: string, hash: string): Promise<boolean> {
    return this.run("verify", input, hash) as Promise<boolean>;
  }

  /**
   * The phpass hash ($P$/$H$) of a password with a stored hash's salt and count, computed on a pool
   * thread. If no thread can start, it is refused (an error) rather than computed on the event loop.
   */
  phpass(password: string, stored: string): Promise<string> {
    return this.run("phpass", password, stored) as Promise<string>;
  }

  /** Stops taking work; threads end once their current hash is done. */
  retire(): void {
    this.retired = true;
    for (const t of this.threads) if (!t.job) void t.worker.terminate();
  }

  private run(op: Job["op"], a: string, b: string | number): Promise<unknown> {
    if (this.broken || this.retired) return runOutsidePool({ op, a, b });
    return new Promise((resolve, reject) => {
      this.queue.push({ op, a, b, resolve, reject });
      this.dispatch();
    });
  }

  private dispatch(): void {
    if (this.broken) return this.fallBack();
    while (this.queue.length) {
      let idle = this.threads.find((t) => !t.job);
      if (!idle && this.threads.length < this.options.threads) idle = this.spawn();
      if (!idle) return; // every thread is busy: the job waits for the next one free
      const job = this.queue.shift()!;
      idle.job = job;
      clearTimeout(idle.idle);
      const id = this.pending.add({ thread: idle, job });
      idle.worker.ref();
      idle.worker.postMessage([id, job.op, job.a, job.b]);
    }
  }

  private spawn(): Thread | undefined {
    let worker: Worker;
    try {
      const nativeBinding = isSingleExecutable() ? resolveNativeBinding("@node-rs/bcrypt") : undefined;
      const module = nativeBinding ? undefined : createRequire(import.meta.url).resolve("@node-rs/bcrypt");
      worker = new Worker(SOURCE, { eval: true, workerData: { module, nativeBinding, nice: this.options.nice }, resourceLimits: HELPER_THREAD_LIMITS });
    } catch {
      this.fallBack();
      return undefined;
    }
    const thread: Thread = { worker, job: undefined };
    worker.on("message", (m: { ready: true; lowered: boolean } | [number, unknown, string?]) => {
      if (!Array.isArray(m)) return this.options.onThreadStart?.(m.lowered);
      const [id, value, error] = m;
      const p = this.pending.take(id);
      if (!p) return;
      thread.job = undefined;
      worker.unref();
      if (error !== undefined) p.job.reject(new Error(error));
      else p.job.resolve(value);
      if (this.retired) void worker.terminate();
      else this.dispatch();
      if (!thread.job && !this.retired) this.idleFrom(thread);
    });
    const gone = () => {
      clearTimeout(thread.idle);
      const at = this.threads.indexOf(thread);
      if (at >= 0) this.threads.splice(at, 1);
      // A job on a thread that died is not lost: it runs again elsewhere.
      for (const [id, p] of this.pending.entries()) if (p.thread === thread) { this.pending.take(id); this.queue.unshift(p.job); }
      if (!this.retired) this.dispatch();
    };
    worker.on("error", () => { this.broken = true; });
    worker.on("exit", gone);
    // After the listeners: adding a "message" listener refs the thread's port again.
    worker.unref();
    this.threads.push(thread);
    return thread;
  }

  /** Ends `thread` if it is still without work after idleMs. */
  private idleFrom(thread: Thread): void {
    clearTimeout(thread.idle);
    thread.idle = setTimeout(() => { if (!thread.job) void thread.worker.terminate(); }, this.options.idleMs ?? IDLE_THREAD_MS);
    thread.idle.unref();
  }

  /** No thread could start: what is queued (and everything after) hashes on libuv's pool. */
  private fallBack(): void {
    this.broken = true;
    for (const job of this.queue.splice(0)) runOutsidePool(job).then(job.resolve, job.reject);
  }
}

/** Without the pool: bcrypt on @node-rs/bcrypt's async API (libuv's pool); phpass refused (it would block the loop). */
function runOutsidePool(job: Pick<Job, "op" | "a" | "b">): Promise<unknown> {
  if (job.op === "hash") return bcryptHash(job.a, { cost: job.b as number });
  if (job.op === "verify") return bcryptVerify(job.a, job.b as string);
  return Promise.reject(new Error("phpass needs the hashing pool, which could not start"));
}

/** What hashes and checks passwords for this process: its own pool, or another process's for it. */
export interface PasswordHasher {
  hash(input: string, cost: number): Promise<string>;
  verify(input: string, hash: string): Promise<boolean>;
  phpass(password: string, stored: string): Promise<string>;
}

let options: HashPoolOptions = { threads: availableParallelism(), nice: 0 };
let pool: HashPool | undefined;
let delegate: PasswordHasher | undefined;

/** The process's own hashing pool (made on first use with the current options). */
export function hashPool(): HashPool {
  return (pool ??= new HashPool(options));
}

/** What the process's passwords are hashed with: the one given to delegateHashing, else its own pool. */
export function passwordHasher(): PasswordHasher {
  return delegate ?? hashPool();
}

/**
 * Hands this process's hashing to `hasher` (an HTTP worker of `serve --workers N` sends it to the
 * primary's pool, which every worker shares); its own pool, if made, is retired.
 */
export function delegateHashing(hasher: PasswordHasher): void {
  delegate = hasher;
  pool?.retire();
  pool = undefined;
}

/** Sets the pool's size and priority (`serve` at start); a pool already made is retired and replaced. */
export function configureHashPool(next: HashPoolOptions): HashPool {
  options = { ...next };
  pool?.retire();
  pool = new HashPool(options);
  return pool;
}
