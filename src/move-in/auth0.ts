import { openSync, readSync, closeSync } from "node:fs";
import type { ImportFact } from "../core/import-parts.js";
import { compact, jsonObject, millis, MoveInError, providerId, readJsonFile, readJsonLines, toInput, type SourceRecord } from "./common.js";
import type { MovedPerson, MoveInSource } from "./source.js";

/** Whether a file is one JSON array (the bulk import file) rather than JSON lines (the exports). */
function isJsonArray(file: string): boolean {
  const fd = openSync(file, "r");
  try {
    const head = Buffer.alloc(64);
    return /^\uFEFF?\s*\[/.test(head.subarray(0, readSync(fd, head, 0, 64, 0)).toString("utf8"));
  } finally { closeSync(fd); }
}

/** What the import file says of a person's password and authenticator apps. */
interface Secrets { hash?: unknown; totp: string[] }

/** An entry of the bulk import file as a user of the export's shape (its id as Auth0 makes it: auth0|<user_id>). */
function importedUser(o: SourceRecord): SourceRecord {
  const id = typeof o.user_id === "string" && o.user_id ? `auth0|${o.user_id}` : undefined;
  return { ...o, user_id: id, identities: [{ provider: "auth0", user_id: o.user_id }], fromImportFile: true };
}

/**
 * Auth0: the users of a bulk user export job (JSON lines: user_id, email, email_verified,
 * created_at, identities, user_metadata, app_metadata), the password-hash export Auth0's support
 * sends (JSON lines: _id.$oid, email, passwordHash), and the bulk *import* file (a JSON array:
 * email, email_verified, user_id, password_hash or custom_password_hash, mfa_factors, names,
 * metadata), in any order. A hash is matched to its user by id (`auth0|<oid>`, `auth0|<user_id>`),
 * else by address; an import file's user no export names is a user of its own. Ids are kept
 * ("auth0|…", "google-oauth2|…"); a database user is a password hash for the address (or, without
 * one, an address alone); a social identity is an identity at its provider; the import file's TOTP
 * factors are authenticator secrets (its phone and email factors do not move). Blocked users are refused.
 */
export const auth0: MoveInSource = {
  id: "auth0",
  files: "the user export (JSON lines), the password-hash export (JSON lines) and the bulk import file (a JSON array)",
  async *read(files) {
    const users: Array<{ where: string; user: SourceRecord }> = [];
    const byId = new Map<string, Secrets>(), byEmail = new Map<string, Secrets>();
    const remember = (id: unknown, email: unknown, s: Secrets) => {
      if (typeof id === "string" && id) byId.set(id, s);
      if (typeof email === "string") byEmail.set(email.toLowerCase(), s);
    };
    for (const file of files) {
      if (isJsonArray(file)) {
        const list = readJsonFile(file);
        if (!Array.isArray(list)) throw new MoveInError(`${file} is not a JSON array`);
        for (const [i, raw] of list.entries()) {
          const o = jsonObject(raw);
          if (!o || typeof o.email !== "string") throw new MoveInError(`${file} [${i}] is not a user of Auth0's import file (an object with email)`);
          const user = importedUser(o);
          const totp = (Array.isArray(o.mfa_factors) ? o.mfa_factors : []).map((f) => jsonObject(jsonObject(f)?.totp)?.secret).filter((x): x is string => typeof x === "string");
          remember(user.user_id, o.email, { hash: o.custom_password_hash ?? o.password_hash, totp });
          users.push({ where: `${file} [${i}]`, user });
        }
        continue;
      }
      for await (const { line, value } of readJsonLines(file)) {
        const o = jsonObject(value);
        if (!o) throw new MoveInError(`${file} line ${line} is not a JSON object`);
        if (typeof o.passwordHash === "string") remember(`auth0|${String(jsonObject(o._id)?.$oid)}`, o.email, { hash: o.passwordHash, totp: [] });
        else if (typeof o.user_id === "string" || typeof o.email === "string") users.push({ where: `${file} line ${line}`, user: o });
        else throw new MoveInError(`${file} line ${line} is neither an Auth0 user (user_id, email) nor a password hash (_id, passwordHash)`);
      }
    }
    // The export is the record of who exists: an import-file entry it names only brings its secrets.
    const exported = users.filter((u) => !u.user.fromImportFile);
    const known = new Set(exported.flatMap(({ user: u }) => [String(u.user_id), String(u.email).toLowerCase()]));
    const people = [...exported, ...users.filter((u) => u.user.fromImportFile && !known.has(String(u.user.user_id)) && !known.has(String(u.user.email).toLowerCase()))];
    let n = 0;
    for (const { where, user: u } of people) {
      n++;
      // A blocked user moved in would be let in: the block must be lifted (or the user left out) first.
      if (u.blocked === true) { yield { line: n, where, refused: `user ${String(u.user_id ?? u.email)} is blocked in Auth0 (blocked: true): unblock them there first, or leave them out` }; continue; }
      const email = typeof u.email === "string" ? u.email : undefined;
      const secrets = byId.get(String(u.user_id)) ?? (email ? byEmail.get(email.toLowerCase()) : undefined);
      yield toInput(n, where, toPerson(u, email, secrets));
    }
  },
};

function toPerson(u: SourceRecord, email: string | undefined, secrets: Secrets | undefined): MovedPerson {
  const hash = secrets?.hash;
  const joined = millis(u.created_at);
  const identities = Array.isArray(u.identities) ? u.identities.map(jsonObject).filter((i): i is SourceRecord => i !== undefined) : [];
  const verified = u.email_verified === true;
  const facts: ImportFact[] = [];
  const database = identities.some((i) => i.provider === "auth0") || (identities.length === 0 && hash !== undefined);
  if (database && hash !== undefined) facts.push({ fact: "password-hash", email, verified, hash, timeJoined: joined });
  else if (database && email) facts.push({ fact: "address-only", email, verified, timeJoined: joined });
  for (const i of identities) {
    if (i.provider === "auth0" || i.provider === "email" || i.provider === "sms") continue;
    facts.push({ fact: "provider-identity", email, verified, provider: providerId(String(i.provider)), subject: String(i.user_id), timeJoined: joined });
  }
  for (const secret of secrets?.totp ?? []) facts.push({ fact: "authenticator-secret", secret });
  const names = compact({ given_name: u.given_name, family_name: u.family_name, name: u.name, nickname: u.nickname, picture: u.picture, username: u.username });
  const metadata = u.fromImportFile
    ? compact({ ...names, user_metadata: jsonObject(u.user_metadata), app_metadata: jsonObject(u.app_metadata) })
    : compact({ user_metadata: jsonObject(u.user_metadata), app_metadata: jsonObject(u.app_metadata) });
  return { id: u.user_id, email, verified, timeJoined: joined, facts, metadata };
}
