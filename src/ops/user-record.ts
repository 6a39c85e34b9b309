import { canonicalEmail, isValidEmail } from "../core/emails.js";
import { checkStoredHashFormat } from "../core/passwords.js";
import { keycloakCredentialToPhc } from "../core/hash-formats/index.js";

/**
 * The JSONL format of `users export` and `users import`: one user per line (docs/operations.md "Import and
 * export"). Export writes the full form; import also takes the short form other systems can
 * produce easily: {"email", "passwordHash", "verified"?}.
 */
export interface RecordLoginMethod {
  /** Passkeys stay out (bound to this server's RP ID, docs/passkeys.md). */
  recipeId: "emailpassword" | "thirdparty" | "passwordless";
  email: string;
  verified: boolean;
  timeJoined: number;
  /**
   * emailpassword only: ours (bcrypt-sha384:$2b$…) or any format core/hash-formats/ reads, as the
   * other system wrote it; on import also Keycloak's credential object (stored as its PBKDF2 PHC string).
   */
  passwordHash?: string | Record<string, unknown>;
  /** thirdparty only */
  thirdParty?: { id: string; userId: string };
  /**
   * Import only: this login method's own user id when it is not the person's (account linking, as
   * SuperTokens keeps it: tokens carry it as `rsub`). Kept as a user row linked to the person.
   */
  recipeUserId?: string;
}

export interface UserRecord {
  id: string;
  email: string;
  timeJoined: number;
  verified: boolean;
  loginMethods: RecordLoginMethod[];
  /** Import only: the app's metadata object (as `PUT /admin/v1/users/{id}/metadata` would set it). */
  metadata?: Record<string, unknown>;
  /** Import only: TOTP secrets (Base32) the source system exported, each a verified device. */
  totp?: Array<{ secret: string; name?: string }>;
}

/** A validated import row, ready to insert. */
export interface ImportUser {
  id: string | undefined;
  email: string;
  timeJoined: number | undefined;
  verifiedEmails: string[];
  /** `userId`: the linked user row the method belongs to (see `linked`); the person's own when absent. */
  credential?: { email: string; hash: string; createdAt: number | undefined; userId?: string };
  identities: Array<{ providerId: string; providerUserId: string; email: string; createdAt: number | undefined; userId?: string }>;
  /** A passwordless login (sign-in by mailed code or link) for this address. */
  passwordless?: { email: string; createdAt: number | undefined; userId?: string };
  /** The metadata object as JSON text. */
  metadata?: string;
  totp: Array<{ secret: string; name: string }>;
  /** Login methods' own user ids (recipeUserId), linked to this person, with their verified addresses. */
  linked: Array<{ id: string; email: string; createdAt: number | undefined; verifiedEmails: string[] }>;
}

export const MAX_LINE_CHARS = 65_536;
const MAX_METADATA_CHARS = 65_536;
const ID = /^[A-Za-z0-9][A-Za-z0-9._:|-]{0,127}$/;
const PROVIDER = /^[a-z0-9-]{1,64}$/i;
// eslint-disable-next-line no-control-regex
const CONTROL = /[\x00-\x1f\x7f]/;

class RowError extends Error {}
const refuse = (why: string): never => { throw new RowError(why); };

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

/** Parses one line; returns the row or the reason it is refused. */
export function parseImportLine(text: string): ImportUser | { refused: string } {
  try {
    if (text.length > MAX_LINE_CHARS) refuse(`line longer than ${MAX_LINE_CHARS} characters`);
    let o: unknown;
    try { o = JSON.parse(text); } catch { return refuse("not valid JSON"); }
    if (!o || typeof o !== "object" || Array.isArray(o)) refuse("not a JSON object");
    return toImportUser(o as Record<string, unknown>);
  } catch (err) {
    if (err instanceof RowError) return { refused: err.message };
    throw err;
  }
}

/** Validates one record given as an object (an importer's translation of another system's user). */
export function parseImportRecord(o: Record<string, unknown>): ImportUser | { refused: string } {
  try {
    return toImportUser(o);
  } catch (err) {
    if (err instanceof RowError) return { refused: err.message };
    throw err;
  }
}

function toImportUser(o: Record<string, unknown>): ImportUser {
  let id: string | undefined;
  if (o.id !== undefined && o.id !== null) id = typeof o.id === "string" && ID.test(o.id) ? o.id : refuse("id must be 1–128 letters, digits or . _ : | - (no @)");
  const main = email(o.email, "email");
  const verified = new Set<string>();
  if (verifiedFlag(o.verified, "verified")) verified.add(main);
  const user: ImportUser = { id, email: main, timeJoined: time(o.timeJoined, "timeJoined"), verifiedEmails: [], identities: [], totp: [], linked: [] };
  if (o.metadata !== undefined && o.metadata !== null) {
    if (typeof o.metadata !== "object" || Array.isArray(o.metadata)) refuse("metadata must be a JSON object");
    const text = JSON.stringify(o.metadata);
    if (text.length > MAX_METADATA_CHARS) refuse(`metadata is longer than ${MAX_METADATA_CHARS} characters of JSON`);
    if (text !== "{}") user.metadata = text;
  }
  if (o.totp !== undefined && o.totp !== null) {
    if (!Array.isArray(o.totp) || o.totp.length > 10) refuse("totp must be a list of at most 10 devices");
    (o.totp as unknown[]).forEach((d, i) => {
      const dev = d as Record<string, unknown> | null;
      const secret = dev && typeof dev.secret === "string" ? dev.secret.replace(/[\s=]/g, "").toUpperCase() : "";
      if (!/^[A-Z2-7]{16,128}$/.test(secret)) refuse(`totp[${i}].secret must be a Base32 TOTP secret (16 to 128 characters)`);
      const name = dev!.name === undefined ? (i === 0 ? "imported" : `imported-${i + 1}`) : dev!.name;
      if (typeof name !== "string" || !/^[^\x00-\x1f\x7f]{1,64}$/.test(name) || user.totp.some((t) => t.name === name)) refuse(`totp[${i}].name must be a distinct name of 1 to 64 characters`);
      user.totp.push({ secret, name: name as string });
    });
  }
  let methods = o.loginMethods;
  if (methods === undefined && o.passwordHash !== undefined) methods = [{ recipeId: "emailpassword", email: o.email, passwordHash: o.passwordHash, verified: o.verified }];
  if (!Array.isArray(methods) || methods.length === 0) refuse("no login method: give loginMethods, or passwordHash for an email/password user");
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
    if (lm.recipeId === "emailpassword") {
      if (user.credential) refuse("more than one emailpassword login method");
      let hash = lm.passwordHash;
      if (hash && typeof hash === "object" && !Array.isArray(hash)) {
        const kc = keycloakCredentialToPhc(hash as Record<string, unknown>);
        hash = "hash" in kc ? kc.hash : refuse(`${where}.passwordHash: ${kc.refused}`);
      }
      if (typeof hash !== "string") return refuse(`${where}.passwordHash is missing`);
      const why = checkStoredHashFormat(hash);
      if (why) refuse(`${where}.${why}`);
      user.credential = { email: mEmail, hash, createdAt, userId };
    } else if (lm.recipeId === "thirdparty") {
      const tp = lm.thirdParty as Record<string, unknown> | undefined;
      if (!tp || typeof tp !== "object") refuse(`${where}.thirdParty is missing`);
      const providerId = typeof tp!.id === "string" && PROVIDER.test(tp!.id) ? tp!.id : refuse(`${where}.thirdParty.id must be a provider id such as "google"`);
      const rawUserId = typeof tp!.userId === "number" ? String(tp!.userId) : tp!.userId;
      const providerUserId = typeof rawUserId === "string" && rawUserId.length > 0 && rawUserId.length <= 256 && !CONTROL.test(rawUserId) ? rawUserId : refuse(`${where}.thirdParty.userId must be a non-empty string`);
      if (user.identities.some((x) => x.providerId === providerId && x.providerUserId === providerUserId)) refuse(`${where} repeats ${providerId} user ${providerUserId}`);
      user.identities.push({ providerId, providerUserId, email: mEmail, createdAt, userId });
    } else if (lm.recipeId === "passwordless") {
      if (user.passwordless) refuse("more than one passwordless login method");
      user.passwordless = { email: mEmail, createdAt, userId };
    } else {
      refuse(`${where}.recipeId must be "emailpassword", "thirdparty" or "passwordless"`);
    }
  });
  // One address, one person: the user's address must be one it signs in with, or a row could
  // show someone else's address as its (verified) email while signing in as another address.
  // Every verified address is then one a login method uses (they come from `email` or a method).
  const own = addressesOf(user);
  if (!own.includes(main)) refuse(`email ${main} is not the address of any of its login methods (${own.join(", ")})`);
  user.verifiedEmails = [...verified];
  return user;
}

/** Every address a row's login methods use (its `email` is one of them). */
export function addressesOf(u: Pick<ImportUser, "credential" | "identities" | "passwordless">): string[] {
  return [...new Set([...(u.credential ? [u.credential.email] : []), ...u.identities.map((i) => i.email), ...(u.passwordless ? [u.passwordless.email] : [])])];
}
