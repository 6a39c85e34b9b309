import { ImportRefusal } from "../../core/import-parts.js";

/**
 * The request lazy migration makes to the old system (docs/moving-in.md "Lazy migration"), and the
 * one reading of its answer:
 *
 *   POST <lazyMigrationUrl>   Authorization: Bearer <lazyMigrationSecret>
 *   {"email": "...", "password": "..."}
 *
 *   200 {"verified": true, "user": {"id"?: "...", "emailVerified"?: true, "metadata"?: {...}}}   the password is right
 *   200 {"verified": false}                                                                   it is not (or no such user)
 *   anything else (another status, a redirect, a body that is not this, no answer in time)    unavailable
 *
 * Fail closed: only an exact "verified": true lets anyone in, and a malformed user (an id we would
 * not accept from an import, metadata its room refuses) is unavailable, not a user without that
 * field. Redirects are not followed: the password goes to the configured address or nowhere. The
 * password is in the request body only; nothing here logs, and the reasons returned never carry
 * the request.
 */
export type OldSystemAnswer =
  | { kind: "verified"; user: { id?: string; emailVerified: boolean; top: ReadonlyMap<string, unknown> } }
  | { kind: "refused" }
  | { kind: "unavailable"; reason: string };

/**
 * `readTop` reads the user's fields that belong to other rooms as the same fields at an import
 * record's top (core/import-parts.ts readPersonTop): their rooms' rules, this server's settings
 * included. What it refuses (an ImportRefusal) makes the answer malformed.
 */
export interface OldSystem { url: string; secret: string; timeoutMs: number; readTop(record: Record<string, unknown>): ReadonlyMap<string, unknown> }

const MAX_ANSWER_BYTES = 256 * 1024;
// The same ids `users import` keeps (ops/user-record.ts): the app's foreign keys stay valid.
const ID = /^[A-Za-z0-9][A-Za-z0-9._:|-]{0,127}$/;

/** Asks the old system whether this is the password of this address. Never throws. */
export async function askOldSystem(o: OldSystem, email: string, password: string): Promise<OldSystemAnswer> {
  const signal = AbortSignal.timeout(o.timeoutMs);
  let text: string;
  try {
    const res = await fetch(o.url, {
      method: "POST",
      redirect: "manual",
      signal,
      headers: { authorization: `Bearer ${o.secret}`, "content-type": "application/json", accept: "application/json", "user-agent": "authsvc-lazy-migration" },
      body: JSON.stringify({ email, password }),
    });
    if (res.status !== 200) {
      await res.body?.cancel().catch(() => undefined);
      return { kind: "unavailable", reason: `HTTP ${res.status}` };
    }
    text = await readCapped(res);
  } catch (err) {
    if (signal.aborted) return { kind: "unavailable", reason: `no answer within ${o.timeoutMs} ms` };
    const cause = (err as { cause?: { code?: string } }).cause;
    return { kind: "unavailable", reason: cause?.code ?? (err instanceof AnswerTooLarge ? err.message : "request failed") };
  }
  return readAnswer(text, o.readTop);
}

class AnswerTooLarge extends Error {}

async function readCapped(res: Response): Promise<string> {
  if (!res.body) return "";
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {  // Node's web streams are async iterable (the DOM typings of the browser tests' project do not say so)
    size += chunk.byteLength;
    if (size > MAX_ANSWER_BYTES) throw new AnswerTooLarge(`answer larger than ${MAX_ANSWER_BYTES} bytes`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/** The answer's body, read as the contract says; anything else is unavailable with a reason that quotes nothing of it. */
export function readAnswer(text: string, readTop: OldSystem["readTop"]): OldSystemAnswer {
  const bad = (why: string): OldSystemAnswer => ({ kind: "unavailable", reason: `malformed answer: ${why}` });
  let o: unknown;
  try { o = JSON.parse(text); } catch { return bad("not JSON"); }
  if (!o || typeof o !== "object" || Array.isArray(o)) return bad("not a JSON object");
  const a = o as Record<string, unknown>;
  if (a.verified === false) return { kind: "refused" };
  if (a.verified !== true) return bad("\"verified\" is neither true nor false");
  const u = a.user ?? {};
  if (typeof u !== "object" || u === null || Array.isArray(u)) return bad("\"user\" is not an object");
  const user = u as Record<string, unknown>;
  const out: { id?: string; emailVerified: boolean; top: ReadonlyMap<string, unknown> } = { emailVerified: false, top: new Map() };
  if (user.id !== undefined && user.id !== null) {
    const id = typeof user.id === "number" && Number.isSafeInteger(user.id) ? String(user.id) : user.id;
    if (typeof id !== "string" || !ID.test(id)) return bad("user.id must be 1–128 letters, digits or . _ : | - (no @)");
    out.id = id;
  }
  if (user.emailVerified !== undefined && user.emailVerified !== null) {
    if (typeof user.emailVerified !== "boolean") return bad("user.emailVerified is not true or false");
    out.emailVerified = user.emailVerified;
  }
  // Its metadata is the record's "metadata" (only that: the contract names no other field).
  try {
    out.top = readTop({ metadata: user.metadata });
  } catch (err) {
    if (err instanceof ImportRefusal) return bad(err.message);
    throw err;
  }
  return { kind: "verified", user: out };
}
