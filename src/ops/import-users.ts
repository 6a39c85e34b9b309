import type { Kysely } from "kysely";
import type { CoreContext } from "../core/context.js";
import type { DB } from "../store/schema.js";
import { isUniqueViolation } from "../store/database.js";
import { findAddressOwners, findExistingIdentities, findExistingUserIds, insertImportRows, type ImportRows } from "../store/user-import.js";
import { createId } from "../util/random.js";
import { addressesOf, parseImportLine, type ImportUser } from "./user-record.js";

export interface RowIssue { line: number; reason: string }

export interface ImportReport {
  dryRun: boolean;
  /** Non-blank lines read. */
  lines: number;
  created: number;
  skipped: number;
  refused: number;
  /** The first MAX_LISTED of each, in line order. */
  skippedRows: RowIssue[];
  refusedRows: RowIssue[];
}

export const MAX_LISTED = 1000;

interface Pending { line: number; user: ImportUser; id: string; addresses: string[] }

/**
 * Imports users from JSONL lines (see user-record.ts). Rows are validated without hashing
 * anything (hashes are kept as they are and upgraded at first sign-in), then written in batches
 * of `batchSize`, one transaction each, as multi-row INSERTs. A row whose id or third-party
 * identity exists already, or one of whose addresses belongs to a user already (one address, one
 * person), in the database or earlier in the file, is skipped, so a second run of the same file
 * creates nothing. Bad rows are refused with their line
 * number. `dryRun` runs every check and writes nothing.
 */
export async function importUsers(ctx: CoreContext, lines: AsyncIterable<string>, opts: { dryRun?: boolean; batchSize?: number; source?: string; onBatch?: (r: ImportReport) => void } = {}): Promise<ImportReport> {
  const dryRun = opts.dryRun === true;
  const batchSize = opts.batchSize ?? 1000;
  const report: ImportReport = { dryRun, lines: 0, created: 0, skipped: 0, refused: 0, skippedRows: [], refusedRows: [] };
  const note = (list: RowIssue[], issue: RowIssue) => { if (list.length < MAX_LISTED) list.push(issue); };
  const skip = (line: number, reason: string) => { report.skipped++; note(report.skippedRows, { line, reason }); };
  // Where each id, address and identity was first seen in this file: a later row repeating one is a duplicate.
  const seenIds = new Map<string, number>(), seenAddresses = new Map<string, number>(), seenIdentities = new Map<string, number>();
  let batch: Pending[] = [];

  const flush = async () => {
    if (batch.length === 0) return;
    const pending = batch;
    batch = [];
    const run = async (db: Kysely<DB>) => {
      const [ids, owners, identities] = await Promise.all([
        findExistingUserIds(db, pending.map((p) => p.id)),
        findAddressOwners(db, pending.flatMap((p) => p.addresses)),
        findExistingIdentities(db, pending.flatMap((p) => p.user.identities)),
      ]);
      const fresh: Pending[] = [], dup: RowIssue[] = [];
      for (const p of pending) {
        const identity = p.user.identities.find((i) => identities.has(`${i.providerId}\n${i.providerUserId}`));
        const taken = p.addresses.find((a) => owners.has(a));
        const why = ids.has(p.id) ? `user ${p.id} exists`
          : identity ? `${identity.providerId} user ${identity.providerUserId} exists`
          : taken ? `the address ${taken} belongs to user ${owners.get(taken)}`
          : undefined;
        if (why) dup.push({ line: p.line, reason: why });
        else fresh.push(p);
      }
      if (!dryRun && fresh.length > 0) await insertImportRows(db, toRows(fresh, ctx.clock.now(), opts.source ?? "import"));
      return { fresh, dup };
    };
    const r = dryRun ? await run(ctx.store.db) : await writeWithRetry(ctx, run);
    report.created += r.fresh.length;
    for (const d of r.dup) skip(d.line, d.reason);
    opts.onBatch?.(report);
  };

  let lineNo = 0;
  for await (const raw of lines) {
    lineNo++;
    const text = lineNo === 1 ? raw.replace(/^\uFEFF/, "") : raw;
    if (text.trim() === "") continue;
    report.lines++;
    const parsed = parseImportLine(text);
    if ("refused" in parsed) {
      report.refused++;
      note(report.refusedRows, { line: lineNo, reason: parsed.refused });
      continue;
    }
    const p: Pending = { line: lineNo, user: parsed, id: parsed.id ?? createId(), addresses: addressesOf(parsed) };
    const keys = identityKeys(parsed);
    const earlier = seenIds.get(p.id) ?? [...p.addresses.map((a) => seenAddresses.get(a)), ...keys.map((k) => seenIdentities.get(k))].find((l) => l !== undefined);
    if (earlier !== undefined) { skip(lineNo, `duplicate of line ${earlier}`); continue; }
    seenIds.set(p.id, lineNo);
    for (const a of p.addresses) seenAddresses.set(a, lineNo);
    for (const k of keys) seenIdentities.set(k, lineNo);
    batch.push(p);
    if (batch.length >= batchSize) await flush();
  }
  await flush();
  // In-file duplicates are noted while reading, database ones per batch: put them back in line order.
  report.skippedRows.sort((a, b) => a.line - b.line);
  return report;
}

const identityKeys = (u: ImportUser) => u.identities.map((i) => `${i.providerId}\n${i.providerUserId}`);

/**
 * One transaction per batch. Another writer (a sign-up while the import runs) can take an address
 * between the check and the insert on PostgreSQL; the batch then rolls back whole and is checked
 * again, which now sees that row as a duplicate.
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

function toRows(list: Pending[], now: number, source: string): ImportRows {
  const rows: ImportRows = { users: [], credentials: [], identities: [], passwordless: [], verified: [], events: [] };
  for (const { id, user } of list) {
    const joined = user.timeJoined ?? now;
    rows.users.push({ id, email: user.email, time_joined: joined, updated_at: now, primary_user_id: null });
    if (user.credential) rows.credentials.push({ user_id: id, email: user.credential.email, password_hash: user.credential.hash, created_at: user.credential.createdAt ?? joined, updated_at: now });
    for (const i of user.identities) rows.identities.push({ provider_id: i.providerId, provider_user_id: i.providerUserId, user_id: id, email: i.email, created_at: i.createdAt ?? joined, updated_at: now });
    if (user.passwordless) rows.passwordless.push({ user_id: id, email: user.passwordless.email, created_at: user.passwordless.createdAt ?? joined });
    for (const email of user.verifiedEmails) rows.verified.push({ user_id: id, email, verified_at: now });
    rows.events.push({ at: now, type: "user.imported", user_id: id, data: JSON.stringify({ source }) });
  }
  return rows;
}
