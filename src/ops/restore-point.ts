import { Kysely, SqliteDialect } from "kysely";
import Database from "better-sqlite3";
import type { DB } from "../store/schema.js";
import { insertEvent } from "../store/events.js";
import { abandonPendingMail, deleteAllOneTimeTokens, findCurrentSigningKey, revokeAllLiveSessions } from "../store/restore-point.js";
import type { SigningKeyRow } from "../store/signing-keys.js";

/** What marking a restore point ended, and what to do about the signing key. */
export interface RestorePoint {
  /** The restore point, epoch ms: sessions issued before it no longer work. */
  at: number;
  sessionsEnded: number;
  tokensVoided: number;
  mailAbandoned: number;
  signingKey: KeyAdvice;
}

export interface KeyAdvice {
  rotate: boolean;
  /** The key that signs after the restore. */
  kid: string | undefined;
  /** Why a rotation is advised (empty when it is not). */
  reasons: string[];
  /** What to run, or why nothing is needed. */
  advice: string;
}

type WriteTx = <T>(fn: (tx: Kysely<DB>) => Promise<T>) => Promise<T>;

/**
 * Makes a restored database a point in time rather than a time machine, in one transaction:
 * - every session still live in it is revoked (reason "restore"), so a refresh token from before the
 *   restore, including one that was signed out after the backup was taken, gets 401. The mark lives
 *   in the session rows every instance already reads per request: it costs nothing extra;
 * - every outstanding verification and reset token is deleted (used ones would otherwise be back);
 * - mail still waiting is abandoned, bodies scrubbed: it was sent already or carries a voided link;
 * - a `database.restored` event records the point and the counts.
 * `before` is the signing key of the database that was replaced (when known), for the key advice.
 */
export async function markRestorePoint(writeTx: WriteTx, o: { now: number; source: string; before?: SigningKeyRow; sourceOpenToOthers?: string }): Promise<RestorePoint> {
  return writeTx(async (tx) => {
    const sessionsEnded = await revokeAllLiveSessions(tx, o.now, "restore");
    const tokensVoided = await deleteAllOneTimeTokens(tx);
    const mailAbandoned = await abandonPendingMail(tx, "abandoned by a restore: its link no longer works");
    const signingKey = adviseOnSigningKey(await findCurrentSigningKey(tx), o.before, o.sourceOpenToOthers);
    await insertEvent(tx, { at: o.now, type: "database.restored", userId: null, data: { source: o.source, sessionsEnded, tokensVoided, mailAbandoned, rotateSigningKey: signingKey.rotate } });
    return { at: o.now, sessionsEnded, tokensVoided, mailAbandoned, signingKey };
  });
}

/** markRestorePoint on a SQLite file that no server has open (the copy a restore is about to put in place). */
export async function markRestorePointInFile(file: string, o: Parameters<typeof markRestorePoint>[1]): Promise<RestorePoint> {
  const db = new Kysely<DB>({ dialect: new SqliteDialect({ database: new Database(file, { fileMustExist: true }) }) });
  try {
    return await markRestorePoint((fn) => db.transaction().execute(fn), o);
  } finally {
    await db.destroy();
  }
}

/** The signing key of a SQLite database that may not exist or may not be an authsvc database. */
export async function readCurrentSigningKey(file: string): Promise<SigningKeyRow | undefined> {
  let raw: Database.Database;
  try { raw = new Database(file, { fileMustExist: true, readonly: true }); } catch { return undefined; }
  const db = new Kysely<DB>({ dialect: new SqliteDialect({ database: raw }) });
  try { return await findCurrentSigningKey(db); } catch { return undefined; } finally { await db.destroy(); }
}

const HOW = "run `authsvc keys rotate` now (running servers pick the new key up within a minute; access tokens signed before keep working until they expire)";

/**
 * Whether the operator should rotate the signing key after a restore. A restore brings back the
 * key the backup holds; that is a risk when the key was rotated since (the rotation is undone),
 * when the backup stores it unencrypted (no AUTHSVC_SECRET then: the file alone can sign tokens),
 * or when the backup file could be read by other accounts.
 */
function adviseOnSigningKey(now: SigningKeyRow | undefined, before: SigningKeyRow | undefined, sourceOpenToOthers: string | undefined): KeyAdvice {
  const reasons: string[] = [];
  if (now && before && now.kid !== before.kid) {
    reasons.push(now.created_at < before.created_at
      ? `the restored database signs with key ${now.kid} again, older than ${before.kid} that signed before: a rotation since the backup is undone`
      : `the restored database signs with key ${now.kid}, not ${before.kid} that signed before`);
  }
  if (now && !now.private_jwk.startsWith("enc:")) reasons.push(`the private key ${now.kid} is stored unencrypted (no AUTHSVC_SECRET when it was made): whoever has a copy of the file can sign access tokens; set AUTHSVC_SECRET before rotating`);
  if (sourceOpenToOthers) reasons.push(`the backup was open to other local accounts (${sourceOpenToOthers}): its private key may have been copied`);
  if (reasons.length) return { rotate: true, kid: now?.kid, reasons, advice: `rotate the signing key: ${HOW}` };
  const same = before ? "the same key as the database it replaced" : "the key the backup holds";
  return { rotate: false, kid: now?.kid, reasons, advice: `no need to rotate the signing key: the restored database signs with ${same}, stored encrypted${sourceOpenToOthers === undefined ? " in a private file" : ""}; rotate anyway (\`authsvc keys rotate\`) if a copy of the backup may have left your hands` };
}
