import { canonicalEmail, isValidEmail } from "../core/emails.js";
import { ImportRefusal, readTop, refuseImport as refuse, type ImportPart } from "../core/import-parts.js";

/**
 * The JSONL format of `users export` and `users import`: one user per line (docs/operations.md "Import and
 * export"). Export writes the full form; import also takes the short forms other systems can produce
 * easily (a part's shortForm). Each login method's own fields, and fields at the top such as
 * second factors, belong to the room that reads them (Room.importer, core/import-parts.ts).
 */
export interface RecordLoginMethod {
  /** A login method's recipe id; kinds that stay out of an export (LoginKind.exported false) never appear. */
  recipeId: string;
  email: string;
  verified: boolean;
  timeJoined: number;
  /**
   * Import only: this login method's own user id when it is not the person's (account linking, as
   * SuperTokens keeps it: tokens carry it as `rsub`). Kept as a user row linked to the person.
   */
  recipeUserId?: string;
  /** Its method's own fields (LoginKind.exported and the USER object's, e.g. a hash or a provider's user). */
  [field: string]: unknown;
}

export interface UserRecord {
  id: string;
  email: string;
  timeJoined: number;
  verified: boolean;
  loginMethods: RecordLoginMethod[];
  /** Import only: the rooms' fields at the top (core/import-parts.ts). */
  [field: string]: unknown;
}

/** A validated import row, ready to insert. */
export interface ImportUser {
  id: string | undefined;
  email: string;
  timeJoined: number | undefined;
  verifiedEmails: string[];
  /** What each room's part read of the row (ImportPart.id -> its piece), for the parts that had any. */
  parts: Map<string, unknown>;
  /** Login methods' own user ids (recipeUserId), linked to this person, with their verified addresses. */
  linked: Array<{ id: string; email: string; createdAt: number | undefined; verifiedEmails: string[] }>;
}

export const MAX_LINE_CHARS = 65_536;
const ID = /^[A-Za-z0-9][A-Za-z0-9._:|-]{0,127}$/;

function email(v: unknown, where: string): string {
  if (typeof v !== "string") return refuse(`${where} is missing or not a string`);
  const e = canonicalEmail(v);
  return isValidEmail(e) ? e : refuse(`${where} is not a valid address: ${JSON.stringify(v)}`);
}

function time(v: unknown, where: string): number | undefined {
  if (v === undefined || v === null) return undefined;
  return typeof v === "number" && Number.isSafeInteger(v) && v >= 0 ? v : refuse(`${where} must be epoch milliseconds (a whole number ≥ 0)`);
}

function verifiedFlag(v: unknown, where: string): boolean {
  if (v === undefined || v === null) return false;
  return typeof v === "boolean" ? v : refuse(`${where} must be true or false`);
}

/** Reads one line as a record (not yet validated: parseImportRecord), or the reason it is refused. */
export function readImportLine(text: string): { record: Record<string, unknown> } | { refused: string } {
  if (text.length > MAX_LINE_CHARS) return { refused: `line longer than ${MAX_LINE_CHARS} characters` };
  let o: unknown;
  try { o = JSON.parse(text); } catch { return { refused: "not valid JSON" }; }
  if (!o || typeof o !== "object" || Array.isArray(o)) return { refused: "not a JSON object" };
  return { record: o as Record<string, unknown> };
}

/** Validates one record (a line read, or an importer's translation of another system's user) with the rooms' parts. */
export function parseImportRecord(parts: readonly ImportPart[], o: Record<string, unknown>): ImportUser | { refused: string } {
  try {
    return toImportUser(parts, o);
  } catch (err) {
    if (err instanceof ImportRefusal) return { refused: err.message };
    throw err;
  }
}

/** "a", "a" or "b", "a", "b" or "c": the recipe ids a record may name. */
const oneOf = (ids: string[]) => ids.length < 2 ? ids.join("") : `${ids.slice(0, -1).join(", ")} or ${ids[ids.length - 1]}`;

function toImportUser(parts: readonly ImportPart[], o: Record<string, unknown>): ImportUser {
  let id: string | undefined;
  if (o.id !== undefined && o.id !== null) id = typeof o.id === "string" && ID.test(o.id) ? o.id : refuse("id must be 1–128 letters, digits or . _ : | - (no @)");
  const main = email(o.email, "email");
  const verified = new Set<string>();
  if (verifiedFlag(o.verified, "verified")) verified.add(main);
  const user: ImportUser = { id, email: main, timeJoined: time(o.timeJoined, "timeJoined"), verifiedEmails: [], parts: readTop(parts, o), linked: [] };
  let methods = o.loginMethods;
  if (methods === undefined) {
    for (const part of parts) {
      const short = part.shortForm?.login(o);
      if (short) { methods = [short]; break; }
    }
  }
  const forms = parts.flatMap((p) => (p.shortForm ? [`, or ${p.shortForm.hint}`] : [])).join("");
  if (!Array.isArray(methods) || methods.length === 0) refuse(`no login method: give loginMethods${forms}`);
  if ((methods as unknown[]).length > 50) refuse("more than 50 login methods");
  (methods as unknown[]).forEach((m, i) => {
    const where = `loginMethods[${i}]`;
    if (!m || typeof m !== "object" || Array.isArray(m)) refuse(`${where} is not an object`);
    const lm = m as Record<string, unknown>;
    const mEmail = lm.email === undefined ? main : email(lm.email, `${where}.email`);
    const createdAt = time(lm.timeJoined, `${where}.timeJoined`);
    let userId: string | undefined;
    if (lm.recipeUserId !== undefined && lm.recipeUserId !== null && lm.recipeUserId !== id) {
      if (!id) refuse(`${where}.recipeUserId needs the user's own id`);
      if (typeof lm.recipeUserId !== "string" || !ID.test(lm.recipeUserId)) refuse(`${where}.recipeUserId must be 1–128 letters, digits or . _ : | -`);
      userId = lm.recipeUserId as string;
      // One row per linked user: each holds the methods naming it (SuperTokens: one method each).
      if (!user.linked.some((l) => l.id === userId)) user.linked.push({ id: userId, email: mEmail, createdAt, verifiedEmails: [] });
    }
    if (verifiedFlag(lm.verified, `${where}.verified`)) {
      const l = user.linked.find((x) => x.id === userId);
      if (l) { if (!l.verifiedEmails.includes(mEmail)) l.verifiedEmails.push(mEmail); } else verified.add(mEmail);
    }
    const part = parts.find((p) => p.login && p.recipeId !== undefined && p.recipeId === lm.recipeId);
    if (!part) return refuse(`${where}.recipeId must be ${oneOf(parts.flatMap((p) => (p.login && p.recipeId !== undefined ? [JSON.stringify(p.recipeId)] : [])))}`);
    user.parts.set(part.id, part.login!(lm, { where, email: mEmail, createdAt, userId }, user.parts.get(part.id)));
  });
  // One address, one person: the user's address must be one it signs in with, or a row could
  // show someone else's address as its (verified) email while signing in as another address.
  // Every verified address is then one a login method uses (they come from `email` or a method).
  const own = addressesOf(parts, user);
  if (!own.includes(main)) refuse(`email ${main} is not the address of any of its login methods (${own.join(", ")})`);
  user.verifiedEmails = [...verified];
  return user;
}

/** Every address a row's login methods use (its `email` is one of them), in the parts' order. */
export function addressesOf(parts: readonly ImportPart[], u: Pick<ImportUser, "parts">): string[] {
  return [...new Set(parts.flatMap((p) => (u.parts.has(p.id) ? p.addresses?.(u.parts.get(p.id)) ?? [] : [])))];
}
