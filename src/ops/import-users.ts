import type { Kysely } from "kysely";
import type { CoreContext } from "../core/context.js";
import { checkPartSettings, ImportRefusal, type ImportPart } from "../core/import-parts.js";
import { findAddressOwners } from "../core/logins.js";
import type { DB } from "../store/schema.js";
import { isUniqueViolation } from "../store/database.js";
import { findExistingUserIds, insertImportRows, type ImportRows } from "../store/user-import.js";
import { createId } from "../util/random.js";
import { addressesOf, parseImportRecord, readImportLine, type ImportUser } from "./user-record.js";

/** A row the import did not write: its line (or record) number, where it came from (a source's file and line or record, `--from`), and why. */
export interface RowIssue { line: number; where?: string; reason: string }

export interface ImportReport {
  dryRun: boolean;
  /** Non-blank lines (or records) read. */
  lines: number;
  created: number;
  skipped: number;
  refused: number;
  /** Rows naming another person's address or identity: when there is any, nothing is written. */
  conflicts: number;
  /** The first MAX_LISTED of each, in line order. */
  skippedRows: RowIssue[];
  refusedRows: RowIssue[];
  conflictRows: RowIssue[];
}

export const MAX_LISTED = 1000;

/**
 * One row to import: a record (the import format, user-record.ts; validated by the import), or
 * refused with its reason; `line` is its line (or record) number, `where` (a source's file and line
 * or record) is kept apart from the reason, so a refusal names its place once.
 */
export type ImportInput = { line: number; record: Record<string, unknown>; where?: string } | { line: number; where?: string; refused: string };

/** A row validated against the rooms' parts. */
type ParsedInput = { line: number; where?: string; user: ImportUser } | { line: number; where?: string; refused: string };

interface Pending { line: number; user: ImportUser; id: string; ownId: boolean; addresses: string[] }

export interface ImportOptions {
  dryRun?: boolean; batchSize?: number; source?: string;
  /** After each batch: the report so far; while writing, `done` of `total` rows to write are done. */
  onBatch?: (r: ImportReport, phase: "checking" | "writing", progress: { done: number; total: number }) => void;
}

/** Rows that can be read more than once (each call reads the source again), or rows read once (kept in memory for the second pass). */
export type ImportSource = (() => AsyncIterable<ImportInput> | Iterable<ImportInput>) | AsyncIterable<ImportInput> | Iterable<ImportInput>;

/** Imports users from JSONL lines (see user-record.ts); see importRecords. `lines` may be a function reading them again. */
export async function importUsers(ctx: CoreContext, lines: AsyncIterable<string> | (() => AsyncIterable<string>), opts: ImportOptions = {}): Promise<ImportReport> {
  return importRecords(ctx, typeof lines === "function" ? () => parseLines(lines()) : parseLines(lines), opts);
}

async function* parseLines(lines: AsyncIterable<string>): AsyncIterable<ImportInput> {
  let lineNo = 0;
  for await (const raw of lines) {
    lineNo++;
    const text = lineNo === 1 ? raw.replace(/^\uFEFF/, "") : raw;
    if (text.trim() === "") continue;
    const read = readImportLine(text);
    yield { line: lineNo, ...read };
  }
}

/** Who first named an id, address or identity in this file (small: the rows themselves are not kept). */
interface Seen { line: number; id: string; ownId: boolean }

/**
 * Imports users, in two passes over the rows so a large file is never held whole. Rows are
 * validated without hashing anything (hashes are kept as they are and upgraded at first sign-in).
 * The first pass checks every row, in batches against the database, before anything is written:
 * - a row whose id exists, or whose address or identity belongs to the same user already (a row
 *   without an id: to any user), is skipped, so a second run of the same file creates nothing and
 *   an interrupted one resumes where it stopped;
 * - a row with an id whose address or identity (what a room's part claims, e.g. a provider's
 *   user) belongs to another user (in the database, or on an earlier row of the file with another
 *   id) is a conflict: one address, two people. With any conflict the import stops with the list
 *   and writes nothing.
 * Without conflicts the second pass reads the rows again and writes those the first kept, in
 * batches of `batchSize`, one transaction each, as multi-row INSERTs (the users, then each room's
 * part its own rows, core/import-parts.ts), each batch checked again inside its transaction.
 * Rows are validated by the rooms' parts as they are read, in each pass. `dryRun` runs the first
 * pass only.
 */
export async function importRecords(ctx: CoreContext, input: ImportSource, opts: ImportOptions = {}): Promise<ImportReport> {
  const dryRun = opts.dryRun === true;
  const batchSize = opts.batchSize ?? 1000;
  const report: ImportReport = { dryRun, lines: 0, created: 0, skipped: 0, refused: 0, conflicts: 0, skippedRows: [], refusedRows: [], conflictRows: [] };
  const note = (list: RowIssue[], issue: RowIssue) => { if (list.length < MAX_LISTED) list.push(issue); };
  const skip = (line: number, reason: string) => { report.skipped++; note(report.skippedRows, { line, reason }); };
  const conflict = (line: number, reason: string) => { report.conflicts++; note(report.conflictRows, { line, reason }); };
  const parts = ctx.importParts;
  const read = rereadable(input);
  // Where each id, address and identity was first seen in this file; the lines the second pass writes.
  const seenIds = new Map<string, number>(), seenKeys = new Map<string, Seen>();
  const write = new Map<number, string>();
  let batch: Pending[] = [];
  const check = async () => {
    const r = await checkBatch(ctx, ctx.store.db, batch);
    for (const d of r.dup) skip(d.line, d.reason);
    for (const c of r.conflicts) conflict(c.line, c.reason);
    for (const f of r.fresh) write.set(f.line, rowKey(f));
    batch = [];
    opts.onBatch?.(report, "checking", { done: 0, total: 0 });
  };

  for await (const input of await read()) {
    const r = parse(parts, input);
    report.lines++;
    const p = pending(ctx, r, report, note);
    if (!p) continue;
    const keys = keysOf(parts, p);
    const sameId = seenIds.get(p.id);
    if (sameId !== undefined) { skip(r.line, `duplicate of line ${sameId}`); continue; }
    const clash = keys.map((k) => [k, seenKeys.get(k.key)] as const).find(([, e]) => e !== undefined);
    if (clash) {
      const [key, earlier] = clash;
      if (p.ownId && earlier!.ownId) conflict(r.line, `the ${key.name} is also on line ${earlier!.line} (user ${earlier!.id}): one address or identity, two people`);
      else skip(r.line, `duplicate of line ${earlier!.line}`);
      continue;
    }
    if (p.ownId) seenIds.set(p.id, r.line);
    for (const k of keys) seenKeys.set(k.key, { line: p.line, id: p.id, ownId: p.ownId });
    batch.push(p);
    if (batch.length >= batchSize) await check();
  }
  if (batch.length > 0) await check();
  report.conflictRows.sort((a, b) => a.line - b.line);

  if (report.conflicts > 0 || dryRun) {
    if (report.conflicts === 0) report.created = write.size;
  } else if (write.size > 0) {
    const total = write.size;
    let done = 0;
    const flush = async () => {
      const rows = batch;
      batch = [];
      // Checked again inside the transaction: a sign-up may have taken an address since.
      const r = await writeWithRetry(ctx, async (db) => {
        const checked = await checkBatch(ctx, db, rows);
        if (checked.fresh.length > 0) await insertRows(ctx, db, checked.fresh, opts.source ?? "import");
        return { ok: checked.fresh.length, late: [...checked.dup, ...checked.conflicts] };
      });
      report.created += r.ok;
      for (const d of r.late) skip(d.line, d.reason);
      done += rows.length;
      opts.onBatch?.(report, "writing", { done, total });
    };
    for await (const input of await read()) {
      const expected = write.get(input.line);
      if (expected === undefined) continue;
      const r = parse(parts, input);
      if ("refused" in r) continue;
      const p = toPending(parts, r.line, r.user);
      // A database read twice can change in between: the rows checked are the rows written, or none.
      if (rowKey(p) !== expected) throw new SourceChangedError(`the source changed between the check and the writing (row ${r.line} is another user now); run the import again`);
      batch.push(p);
      if (batch.length >= batchSize) await flush();
    }
    if (batch.length > 0) await flush();
  }
  // In-file duplicates are noted while reading, database ones per batch: put them back in line order.
  report.skippedRows.sort((a, b) => a.line - b.line);
  return report;
}

/** A re-readable source: a function is called again for each pass; rows read once are kept (standard input). */
function rereadable(input: ImportSource): () => Promise<AsyncIterable<ImportInput> | Iterable<ImportInput>> {
  if (typeof input === "function") return async () => input();
  let kept: ImportInput[] | undefined;
  return async () => {
    if (!kept) { kept = []; for await (const r of input) kept.push(r); }
    return kept;
  };
}

/** A row validated by the rooms' parts, keeping where it came from. */
function parse(parts: readonly ImportPart[], r: ImportInput): ParsedInput {
  if ("refused" in r) return r;
  const parsed = parseImportRecord(parts, r.record);
  return "refused" in parsed ? { line: r.line, where: r.where, refused: parsed.refused } : { line: r.line, where: r.where, user: parsed };
}

/** A row ready to check, or undefined when it is refused (counted and noted in the report). */
function pending(ctx: CoreContext, r: ParsedInput, report: ImportReport, note: (list: RowIssue[], issue: RowIssue) => void): Pending | undefined {
  if ("refused" in r) {
    report.refused++;
    note(report.refusedRows, withWhere(r, r.refused));
    return undefined;
  }
  const refused = settingsRefusal(ctx, r.user);
  if (refused !== undefined) {
    report.refused++;
    note(report.refusedRows, withWhere(r, refused));
    return undefined;
  }
  return toPending(ctx.importParts, r.line, r.user);
}

/** A refusal as the report lists it: `where` only when the row has one (plain JSON lines have their line). */
const withWhere = (r: ParsedInput, reason: string): RowIssue => (r.where === undefined ? { line: r.line, reason } : { line: r.line, where: r.where, reason });

/** Why this server's settings refuse a row the parts read (the first part's reason), or undefined. */
function settingsRefusal(ctx: CoreContext, user: ImportUser): string | undefined {
  try {
    checkPartSettings(ctx.importParts, user.parts, ctx.config);
    return undefined;
  } catch (err) {
    if (err instanceof ImportRefusal) return err.message;
    throw err;
  }
}

const toPending = (parts: readonly ImportPart[], line: number, user: ImportUser): Pending => ({ line, user, id: user.id ?? createId(), ownId: user.id !== undefined, addresses: addressesOf(parts, user) });
/** What names a row across both passes: its own id, or (without one) its address. */
const rowKey = (p: Pending) => (p.ownId ? `id ${p.id}` : `address ${p.user.email}`);

/** The rows read for writing are not the rows checked: nothing more is written. */
export class SourceChangedError extends Error {}

/** What a row holds that only one person may: its addresses, the parts' claims (a provider's user), its linked users' ids. */
const keysOf = (parts: readonly ImportPart[], p: Pending) => [
  ...p.addresses.map((a) => ({ key: `address ${a}`, name: `address ${a}` })),
  ...claimsOf(parts, p.user).map((c) => ({ key: `identity ${c.part}\n${c.key}`, name: `identity ${c.name}` })),
  ...p.user.linked.map((l) => ({ key: `user id ${l.id}`, name: `user id ${l.id}` })),
];
const claimsOf = (parts: readonly ImportPart[], u: ImportUser) => parts.flatMap((part) => (
  part.claims && u.parts.has(part.id) ? part.claims(u.parts.get(part.id)).map((c) => ({ part: part.id, ...c })) : []));

/** Sorts a batch into rows to create, rows already here (skipped) and rows naming someone else's address or identity. */
async function checkBatch(ctx: CoreContext, db: Kysely<DB>, pending: Pending[]): Promise<{ fresh: Pending[]; dup: RowIssue[]; conflicts: RowIssue[] }> {
  const parts = ctx.importParts;
  const [ids, owners, ...claimed] = await Promise.all([
    findExistingUserIds(db, pending.flatMap((p) => [p.id, ...p.user.linked.map((l) => l.id)])),
    findAddressOwners(db, ctx.logins, pending.flatMap((p) => p.addresses)),
    // What the parts' claims (a provider's user) belong to already, by "part\nkey".
    ...parts.map(async (part) => {
      const held = pending.flatMap((p) => (p.user.parts.has(part.id) ? [p.user.parts.get(part.id)] : []));
      const found = part.findClaimed && held.length > 0 ? await part.findClaimed(db, held) : new Map<string, string>();
      return [...found].map(([key, owner]) => [`${part.id}\n${key}`, owner] as const);
    }),
  ]);
  const claimOwners = new Map(claimed.flat());
  const fresh: Pending[] = [], dup: RowIssue[] = [], conflicts: RowIssue[] = [];
  for (const p of pending) {
    if (ids.has(p.id)) { dup.push({ line: p.line, reason: `user ${p.id} exists` }); continue; }
    const linkedTaken = p.user.linked.find((l) => ids.has(l.id));
    if (linkedTaken) { conflicts.push({ line: p.line, reason: `user ${linkedTaken.id} (a login method of ${p.id}) exists already as someone else` }); continue; }
    const claim = claimsOf(parts, p.user).find((c) => claimOwners.has(`${c.part}\n${c.key}`));
    const taken = p.addresses.find((a) => owners.has(a));
    const owner = claim ? claimOwners.get(`${claim.part}\n${claim.key}`)! : taken ? owners.get(taken)! : undefined;
    if (owner === undefined) { fresh.push(p); continue; }
    const what = claim ? claim.name : `the address ${taken}`;
    // Without an id of its own the row cannot say whose it is: taken as imported already (a re-run).
    if (p.ownId) conflicts.push({ line: p.line, reason: `${what} belongs to user ${owner}, not ${p.id}: one address or identity, two people` });
    else dup.push({ line: p.line, reason: claim ? `${what} exists` : `${what} belongs to user ${owner}` });
  }
  return { fresh, dup, conflicts };
}

/**
 * One transaction per batch. Another writer (a sign-up while the import runs) can take an address
 * between the check and the insert on PostgreSQL; the batch then rolls back whole and is checked
 * again, which now sees that row as taken.
 */
async function writeWithRetry<T>(ctx: CoreContext, fn: (db: Kysely<DB>) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await ctx.store.writeTx(fn);
    } catch (err) {
      if (!isUniqueViolation(err) || attempt >= 3) throw err;
    }
  }
}

/** Writes a checked batch: the users and the kernel's rows, then each room's part its own (inside the transaction). */
async function insertRows(ctx: CoreContext, db: Kysely<DB>, list: Pending[], source: string): Promise<void> {
  const now = ctx.clock.now();
  const rows: ImportRows = { users: [], verified: [], events: [] };
  for (const { id, user } of list) {
    const joined = user.timeJoined ?? now;
    rows.users.push({ id, email: user.email, time_joined: joined, updated_at: now, primary_user_id: null });
    for (const l of user.linked) {
      rows.users.push({ id: l.id, email: l.email, time_joined: l.createdAt ?? joined, updated_at: now, primary_user_id: id });
      for (const email of l.verifiedEmails) rows.verified.push({ user_id: l.id, email, verified_at: now });
    }
    for (const email of user.verifiedEmails) rows.verified.push({ user_id: id, email, verified_at: now });
    rows.events.push({ at: now, type: "user.imported", user_id: id, data: JSON.stringify({ source }) });
  }
  await insertImportRows(db, rows);
  for (const part of ctx.importParts) {
    const people = list.flatMap(({ id, user }) => (user.parts.has(part.id) ? [{ id, joined: user.timeJoined ?? now, part: user.parts.get(part.id) }] : []));
    if (people.length > 0) await part.insert(db, people, { now, secret: ctx.config.secret });
  }
}
