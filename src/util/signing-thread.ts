import { sign, type KeyObject } from "node:crypto";
import { Worker } from "node:worker_threads";
import { Slots } from "./slots.js";
import { HELPER_THREAD_LIMITS } from "./thread-limits.js";

// A string on purpose: a bundled CLI or a single executable has no worker file at a known path.
// Keys arrive once each (KeyObjects cross threads by postMessage) and are kept by kid, at most
// MAX_THREAD_KEYS of them: the main thread says which to drop. Message items:
// [id, kid, data] or [id, kid, data, key] (sign; the key the first time), [0, kid] (drop that key),
// [id] (answer how many keys are held: a hook for the memory tests).
const SOURCE = String.raw`
"use strict";
const { parentPort } = require("node:worker_threads");
const { sign } = require("node:crypto");
const keys = new Map();
parentPort.on("message", (batch) => {
  const out = [];
  for (const [id, kid, data, key] of batch) {
    if (id === 0) { keys.delete(kid); continue; }
    if (kid === undefined) { out.push([id, String(keys.size)]); continue; }
    if (key) keys.set(kid, key);
    try { out.push([id, sign("RSA-SHA256", Buffer.from(data), keys.get(kid)).toString("base64url")]); }
    catch (err) { out.push([id, undefined, String(err && err.message || err)]); }
  }
  parentPort.postMessage(out);
});
`;

/**
 * Keys the thread holds at once: the current key, and room for a rotation or two (and for the few
 * apps a test process runs side by side); the least recently sent is dropped first.
 */
const MAX_THREAD_KEYS = 4;

interface Pending { resolve: (signature: string) => void; reject: (err: Error) => void }

/** The thread will not answer (stopped or never started): the request may be signed elsewhere. */
class ThreadGone extends Error {}

/**
 * RSA-SHA256 signatures (access tokens) on a thread of their own, so the event loop is not held for
 * the signature's fraction of a millisecond on every sign-in, sign-up and refresh: on a busy server
 * that time goes to other requests, and the signatures use another core. One thread per process,
 * started at the first signature (CLI commands that sign nothing never start it); it never keeps
 * the process alive while idle. Requests made in one event-loop turn travel as one message. If the
 * thread cannot start or dies, signing falls back to the event loop: slower, never wrong.
 */
export class SigningThread {
  private worker: Worker | undefined;
  private broken = false;
  /** The requests awaiting the thread, by id - 1 (util/slots.ts; id 0 is the message that drops a key). */
  private readonly pending = new Slots<Pending>();
  /** What the thread holds, by kid, in the order it was sent (oldest first). */
  private readonly sent = new Map<string, KeyObject>();
  private queue: unknown[][] = [];
  private scheduled = false;

  /**
   * Signs with `key`, known to the thread as `kid`: a key is sent once and then named; another key
   * under a known kid (a different database in the same process) replaces it.
   */
  sign(data: string, key: KeyObject, kid: string): Promise<string> {
    const worker = this.broken ? undefined : this.start();
    if (!worker) return Promise.resolve(signHere(data, key));
    return this.request(worker, (id) => {
      if (this.sent.get(kid) === key) {
        // Most recently used goes to the end, so eviction drops the key not used for longest.
        this.sent.delete(kid);
        this.sent.set(kid, key);
        return [id, kid, data];
      }
      this.sent.delete(kid);
      this.sent.set(kid, key);
      if (this.sent.size > MAX_THREAD_KEYS) {
        const oldest = this.sent.keys().next().value as string;
        this.sent.delete(oldest);
        this.queue.push([0, oldest]);
      }
      return [id, kid, data, key];
    });
  }

  /** How many keys the thread holds (asked of the thread itself; 0 when it is not running). */
  async countThreadKeys(): Promise<number> {
    const worker = this.broken ? undefined : this.worker;
    if (!worker) return 0;
    return Number(await this.request(worker, (id) => [id]));
  }

  private request(worker: Worker, item: (id: number) => unknown[]): Promise<string> {
    return new Promise((resolve, reject) => {
      const id = this.pending.add({ resolve, reject }) + 1;
      this.queue.push(item(id));
      if (this.pending.size === 1) worker.ref();
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => this.flush());
      }
    });
  }

  /** Stops the thread (tests; a stopped thread's later requests are signed on the event loop). */
  async stop(): Promise<void> {
    await this.worker?.terminate();
  }

  private flush(): void {
    this.scheduled = false;
    const batch = this.queue;
    this.queue = [];
    if (batch.length === 0) return;
    const worker = this.worker;
    if (!worker) return this.failAll(batch.map((r) => r[0] as number).filter((id) => id !== 0));
    worker.postMessage(batch);
  }

  private start(): Worker | undefined {
    if (this.worker) return this.worker;
    try {
      const w = new Worker(SOURCE, { eval: true, resourceLimits: HELPER_THREAD_LIMITS });
      w.unref();
      w.on("message", (results: [number, string | undefined, string?][]) => {
        for (const [id, signature, error] of results) {
          const p = this.pending.take(id - 1);
          if (!p) continue;
          if (signature !== undefined) p.resolve(signature);
          else p.reject(new Error(`signing failed: ${error}`));
        }
        if (this.pending.size === 0) w.unref();
      });
      // A thread that fails is not restarted: every later signature is made on the event loop.
      w.on("error", () => { this.broken = true; });
      w.on("exit", () => {
        if (this.worker === w) this.worker = undefined;
        this.sent.clear();
        this.broken = true;
        this.failAll(this.pending.entries().map(([slot]) => slot + 1));
      });
      this.worker = w;
      return w;
    } catch {
      this.broken = true;
      return undefined;
    }
  }

  /** Rejects requests the thread will never answer; signRs256 signs them on the event loop. */
  private failAll(ids: number[]): void {
    for (const id of ids) {
      const p = this.pending.take(id - 1);
      p?.reject(new ThreadGone("signing thread stopped"));
    }
  }
}

function signHere(data: string, key: KeyObject): string {
  return sign("RSA-SHA256", Buffer.from(data), key).toString("base64url");
}

const processThread = new SigningThread();

/** How many keys the process's signing thread holds (memory tests). */
export function countProcessThreadKeys(): Promise<number> {
  return processThread.countThreadKeys();
}

/**
 * The base64url RSA-SHA256 signature of `data` with `key` (whose kid is `kid`), computed off the
 * event loop (on the process's signing thread unless another is given); on the event loop if that
 * thread is gone.
 */
export async function signRs256(data: string, key: KeyObject, kid: string, thread = processThread): Promise<string> {
  try {
    return await thread.sign(data, key, kid);
  } catch (err) {
    // Only a request the thread never answered is signed again; one it refused stays refused.
    if (err instanceof ThreadGone) return signHere(data, key);
    throw err;
  }
}
