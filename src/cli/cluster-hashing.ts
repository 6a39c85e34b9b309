import { hashPool, type PasswordHasher } from "../core/hash-pool.js";
import { Slots } from "../util/slots.js";

/**
 * Password hashing under `serve --workers N`: one pool of --hash-threads threads, in the primary,
 * for every worker. The kernel hands a burst of new connections to whichever worker wakes first
 * (the workers share one listening socket, cli/serve-cluster.ts), so the few keep-alive
 * connections of a proxy or a client often all land on one worker; with each worker hashing on
 * its own share of the threads, that worker's share was all the sign-ins could use (half the
 * cores with two workers). A hash is 50–250 ms of CPU; the message to the primary and back is a
 * fraction of a millisecond.
 *
 * Messages: the worker's { authsvc: "hash-job", id, op, a, b } (the arguments of PasswordHasher's
 * method `op`), the primary's { authsvc: "hash-answer", id, value } or { …, error }.
 */
export type HashOp = "hash" | "verify" | "phpass";
export type HashMessage =
  | { authsvc: "hash-job"; id: number; op: HashOp; a: string; b: string | number }
  | { authsvc: "hash-answer"; id: number; value?: string | boolean; error?: string };

interface Job { op: HashOp; a: string; b: string | number; resolve: (v: never) => void; reject: (e: Error) => void }

/** Runs one job on this process's own pool. */
function runHere(op: HashOp, a: string, b: string | number): Promise<string | boolean> {
  const pool = hashPool();
  return op === "hash" ? pool.hash(a, Number(b)) : op === "verify" ? pool.verify(a, String(b)) : pool.phpass(a, String(b));
}

/**
 * The worker's side: a PasswordHasher that sends each job to the primary. While the primary is
 * gone (the worker then drains and stops), jobs run on a pool of the worker's own, and so do those
 * the primary had not answered when it went: no request waits for an answer that cannot come.
 */
export function hashingInPrimary(toPrimary: (m: HashMessage) => void, connected: () => boolean): PasswordHasher & { onMessage(m: unknown): void; primaryGone(): void } {
  const waiting = new Slots<Job>();
  const run = (op: HashOp, a: string, b: string | number) => {
    if (!connected()) return runHere(op, a, b);
    return new Promise<never>((resolve, reject) => {
      const id = waiting.add({ op, a, b, resolve, reject });
      toPrimary({ authsvc: "hash-job", id, op, a, b });
    });
  };
  return {
    hash: (input, cost) => run("hash", input, cost) as Promise<string>,
    verify: (input, hash) => run("verify", input, hash) as Promise<boolean>,
    phpass: (password, stored) => run("phpass", password, stored) as Promise<string>,
    onMessage(m) {
      if (!isHashAnswer(m)) return;
      const job = waiting.take(m.id);
      if (!job) return;
      if (m.error !== undefined) job.reject(new Error(m.error));
      else job.resolve(m.value as never);
    },
    primaryGone() {
      for (const [id, job] of waiting.entries()) {
        waiting.take(id);
        runHere(job.op, job.a, job.b).then(job.resolve as (v: unknown) => void, job.reject);
      }
    },
  };
}

/** The primary's side: runs a worker's job on the primary's pool and answers with `reply`. A malformed job is ignored. */
export function answerHashJob(m: unknown, reply: (answer: HashMessage) => void): void {
  if (!isHashJob(m)) return;
  runHere(m.op, m.a, m.b).then(
    (value) => reply({ authsvc: "hash-answer", id: m.id, value }),
    (err: unknown) => reply({ authsvc: "hash-answer", id: m.id, error: String((err as Error)?.message ?? err) }),
  );
}

function isHashJob(m: unknown): m is Extract<HashMessage, { authsvc: "hash-job" }> {
  const j = m as Record<string, unknown> | null;
  return j !== null && typeof j === "object" && j.authsvc === "hash-job" && Number.isInteger(j.id) && (j.op === "hash" || j.op === "verify" || j.op === "phpass")
    && typeof j.a === "string" && (typeof j.b === "string" || typeof j.b === "number");
}

function isHashAnswer(m: unknown): m is Extract<HashMessage, { authsvc: "hash-answer" }> {
  const j = m as Record<string, unknown> | null;
  return j !== null && typeof j === "object" && j.authsvc === "hash-answer" && Number.isInteger(j.id);
}
