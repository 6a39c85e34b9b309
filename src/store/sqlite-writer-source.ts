/**
 * The SQLite writer thread's code, as a self-contained CommonJS script run with
 * `new Worker(SQLITE_WRITER_SOURCE, { eval: true })`. It is a string on purpose: a bundled CLI or a
 * single executable has no worker file at a known path on disk, and a string survives any bundler.
 * It requires better-sqlite3 from the absolute path in `workerData.module` (and passes
 * `workerData.nativeBinding` on to it when given), so it never resolves a package by name from the cwd.
 *
 * Group commit: every logical transaction runs inside a SAVEPOINT of one outer `BEGIN IMMEDIATE`
 * transaction. A `release` makes the logical transaction final but only *queues* its acknowledgement;
 * the outer transaction is committed (one fsync with synchronous=FULL) as soon as no other writer is
 * waiting (`more` is false), the batch is full or 2 ms have passed, and only then are the queued
 * transactions acknowledged. Nothing is acknowledged before its commit is durable; if the commit
 * fails, every transaction in the batch fails.
 *
 * Messages in: { id, op: "begin" | "run" | "release" | "rollback" | "single" | "bare" | "flush" | "close",
 * sql?, params?, ack?, more? }. Replies: { id, rows?, changes?, lastInsertRowid?, error? }. Messages are
 * handled strictly in order, so the main thread waits for no reply to "begin", "release" or "rollback".
 */
export const SQLITE_WRITER_SOURCE = String.raw`
"use strict";
const { parentPort, workerData } = require("node:worker_threads");
// The single executable prepends better-sqlite3 bundled as a global (no package on disk to require).
const Database = typeof __authsvcBetterSqlite3 !== "undefined" ? __authsvcBetterSqlite3 : require(workerData.module);
const MAX_BATCH = 128, MAX_DELAY_MS = 2;
let db;
try {
  db = new Database(workerData.file, { timeout: workerData.timeout, fileMustExist: true, nativeBinding: workerData.nativeBinding });
  db.pragma("synchronous = " + workerData.synchronous);
  db.pragma("foreign_keys = ON");
} catch (e) {
  parentPort.postMessage({ id: 0, error: toError(e) });
  throw e;
}
const cache = new Map();
let acks = []; // ack ids of released logical transactions waiting for the outer commit
let timer;
let open = false; // a logical transaction is between its savepoint and its release
let flushDue = false;
let beginError; // why the current logical transaction could not begin (its statements get this error)
function toError(e) { return { message: String(e && e.message || e), code: e && e.code, name: e && e.name }; }
function prepare(text) {
  let s = cache.get(text);
  if (!s) { s = db.prepare(text); if (cache.size > 500) cache.clear(); cache.set(text, s); }
  return s;
}
function bind(params) {
  return (params || []).map((p) => (p instanceof Uint8Array && !Buffer.isBuffer(p) ? Buffer.from(p.buffer, p.byteOffset, p.byteLength) : p));
}
function run(text, params) {
  const s = prepare(text);
  if (s.reader) return { rows: s.all(bind(params)) };
  const r = s.run(bind(params));
  return { rows: [], changes: r.changes, lastInsertRowid: r.lastInsertRowid };
}
function failBatch(error) {
  const list = acks; acks = [];
  for (const ack of list) parentPort.postMessage({ id: ack, error });
}
function flush() {
  if (timer) { clearTimeout(timer); timer = undefined; }
  flushDue = false;
  if (!db.inTransaction) { failBatch({ message: "the batched transaction was rolled back", code: "SQLITE_ABORT" }); return; }
  try {
    db.exec("commit");
  } catch (e) {
    if (db.inTransaction) { try { db.exec("rollback"); } catch {} }
    failBatch(toError(e));
    return;
  }
  const list = acks; acks = [];
  for (const ack of list) parentPort.postMessage({ id: ack });
}
function begin() {
  if (!db.inTransaction) {
    if (acks.length) failBatch({ message: "the batched transaction was rolled back", code: "SQLITE_ABORT" });
    db.exec("begin immediate");
  }
  db.exec("savepoint authsvc_tx");
  open = true;
}
// The timer never commits in the middle of a logical transaction: it only marks the batch due.
function onTimer() { timer = undefined; if (open) flushDue = true; else if (db.inTransaction) flush(); }
function release(ack, more) {
  try {
    db.exec("release authsvc_tx");
  } catch (e) {
    parentPort.postMessage({ id: ack, error: toError(e) }); // the caller waits on the ack, not on this reply
    rollback();
    throw e;
  }
  open = false;
  acks.push(ack);
  if (!more || flushDue || acks.length >= MAX_BATCH) flush();
  else if (!timer) timer = setTimeout(onTimer, MAX_DELAY_MS);
}
function rollback() {
  if (!open) { if (flushDue && db.inTransaction) flush(); return; } // its savepoint never opened (begin failed)
  open = false;
  if (!db.inTransaction) { failBatch({ message: "the batched transaction was rolled back", code: "SQLITE_ABORT" }); return; }
  db.exec("rollback to authsvc_tx");
  db.exec("release authsvc_tx");
  if (!acks.length) db.exec("rollback"); // nothing else in the batch: end the outer transaction now
  else if (flushDue) flush();
}
parentPort.on("message", (m) => {
  let reply;
  try {
    switch (m.op) {
      // The main thread does not wait for "begin": a failure (SQLITE_BUSY past the busy timeout) is
      // kept and answered to the transaction's statements and its release instead.
      case "begin": beginError = undefined; try { begin(); } catch (e) { beginError = toError(e); } reply = {}; break;
      case "run": if (beginError) throw beginError; reply = run(m.sql, m.params); break;
      case "release":
        if (beginError) { parentPort.postMessage({ id: m.ack, error: beginError }); beginError = undefined; }
        else release(m.ack, m.more);
        reply = {};
        break;
      case "rollback": beginError = undefined; rollback(); reply = {}; break;
      case "single": { // one data-changing statement outside a transaction: a logical transaction of its own
        begin();
        try { reply = run(m.sql, m.params); } catch (e) { rollback(); throw e; }
        release(m.ack, m.more);
        break;
      }
      case "bare": // DDL, pragmas, VACUUM…: outside any transaction, after the open batch is committed
        if (db.inTransaction) flush();
        reply = run(m.sql, m.params);
        break;
      case "flush": if (db.inTransaction) flush(); reply = {}; break;
      case "close": if (db.inTransaction) flush(); db.close(); reply = {}; break;
      default: throw new Error("unknown op " + m.op);
    }
  } catch (e) {
    reply = { error: e === beginError ? e : toError(e) };
    // Some errors (disk full, I/O) make SQLite roll back the whole outer transaction.
    if (!db.inTransaction && acks.length) failBatch(toError(e));
  }
  reply.id = m.id;
  parentPort.postMessage(reply);
});
parentPort.postMessage({ id: 0 });
`;
