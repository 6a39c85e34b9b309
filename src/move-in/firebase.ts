import { createReadStream, readFileSync } from "node:fs";
import { parse as parseCsv } from "csv-parse";
import { toFbScrypt, type FirebaseHashConfig } from "../core/hash-formats/index.js";
import type { ImportFact } from "../core/import-parts.js";
import { jsonObject, millis, MoveInError, providerId, toInput, type SourceRecord } from "./common.js";
import type { MoveInSource } from "./source.js";

/**
 * Reads the console's "Password hash parameters" block exactly as shown:
 * `hash_config { algorithm: SCRYPT, base64_signer_key: …, base64_salt_separator: …, rounds: 8, mem_cost: 14 }`.
 */
export function parseFirebaseHashConfig(text: string): FirebaseHashConfig {
  const fields = new Map<string, string>();
  for (const m of text.replace(/^\s*hash_config\s*\{/, "").replace(/\}\s*$/, "").matchAll(/([a-z_0-9]+)\s*:\s*("?)([^,\s"}]+)\2/gi)) fields.set(m[1].toLowerCase(), m[3]);
  const bad = (why: string): never => { throw new MoveInError(`--firebase-hash-config: ${why} (copy the hash_config { … } block from the console's "Password hash parameters")`); };
  if ((fields.get("algorithm") ?? "").toUpperCase() !== "SCRYPT") bad(`algorithm is ${fields.get("algorithm") ?? "missing"}, not SCRYPT`);
  const base64 = (k: string) => { const v = fields.get(k); return v && /^[A-Za-z0-9+/_-]+={0,2}$/.test(v) ? v : bad(`${k} is missing or not base64`); };
  const int = (k: string, max: number) => { const v = Number(fields.get(k)); return Number.isInteger(v) && v >= 1 && v <= max ? v : bad(`${k} is missing or not a whole number from 1 to ${max}`); };
  return { signerKey: base64("base64_signer_key"), saltSeparator: base64("base64_salt_separator"), rounds: int("rounds", 32), memCost: int("mem_cost", 20) };
}

/** The providers auth:export's CSV has columns for, each at its first column (rawId, email, displayName, photoUrl). */
const CSV_PROVIDERS: Array<[string, number]> = [["google.com", 7], ["facebook.com", 11], ["twitter.com", 15], ["github.com", 19]];

/**
 * One row of `auth:export --format=csv` (no header; firebase-tools' column order: uid, email,
 * emailVerified, passwordHash, salt, displayName, photoUrl, then rawId/email/displayName/photoUrl
 * for Google, Facebook, Twitter and GitHub, createdAt, lastLoginAt, phoneNumber, disabled,
 * customAttributes) as the JSON export's user.
 */
function csvUser(c: string[]): SourceRecord {
  const providerUserInfo = CSV_PROVIDERS.filter(([, i]) => c[i]).map(([providerId, i]) => ({ providerId, rawId: c[i], email: c[i + 1] || undefined }));
  return { localId: c[0], email: c[1] || undefined, emailVerified: c[2] === "true", passwordHash: c[3] || undefined, salt: c[4] || undefined, createdAt: c[23], providerUserInfo, customAttributes: c[27] };
}

async function* csvUsers(file: string): AsyncIterable<{ where: string; user: SourceRecord }> {
  const parser = createReadStream(file).pipe(parseCsv({ bom: true, skip_empty_lines: true, relax_column_count: true, relax_quotes: true, info: true }));
  try {
    for await (const r of parser as AsyncIterable<{ record: string[]; info: { lines: number } }>) {
      if (r.record.length < 24) throw new MoveInError(`${file} line ${r.info.lines} has ${r.record.length} columns, not auth:export's 28`);
      yield { where: `${file} line ${r.info.lines}`, user: csvUser(r.record) };
    }
  } catch (err) {
    if (err instanceof MoveInError) throw err;
    throw new MoveInError(`${file} is not auth:export's CSV: ${(err as Error).message}`);
  }
}

function* jsonUsers(file: string): Iterable<{ where: string; user: SourceRecord }> {
  let doc: unknown;
  try { doc = JSON.parse(readFileSync(file, "utf8").replace(/^\uFEFF/, "")); } catch { throw new MoveInError(`${file} is not JSON (give the file of firebase auth:export, --format=json or csv)`); }
  const users = jsonObject(doc)?.users;
  if (!Array.isArray(users)) throw new MoveInError(`${file} has no "users" list (give the file of firebase auth:export, --format=json or csv)`);
  for (let i = 0; i < users.length; i++) yield { where: `${file} users[${i}]`, user: jsonObject(users[i]) ?? {} };
}

/** A file is the CSV form when it says so by its name, or does not open with a JSON object. */
function isCsv(file: string): boolean {
  if (/\.csv$/i.test(file)) return true;
  if (/\.json$/i.test(file)) return false;
  return !/^\s*\{/.test(readFileSync(file, "utf8").slice(0, 64).replace(/^\uFEFF/, ""));
}

/**
 * Firebase Authentication: `firebase auth:export users.json --format=json` ({"users": […]}) or
 * `--format=csv`, with the project's hash parameters (`--firebase-hash-config FILE`). Each password
 * hash and salt becomes one `$fbscrypt$` string carrying the project's parameters. The uid
 * (localId) is kept as the id; providerUserInfo entries (google.com, github.com, apple.com…; the CSV
 * has columns for Google, Facebook, Twitter and GitHub only) are identities at those providers with
 * their rawId as the subject; a user with neither is an address alone; customAttributes become
 * metadata. Firebase exports no authenticator secrets.
 */
export const firebase: MoveInSource = {
  id: "firebase",
  files: "the auth:export file (JSON or CSV)",
  async *read(files, options) {
    if (!options.firebaseHashConfig) throw new MoveInError("--from firebase needs --firebase-hash-config FILE (the console's hash_config { … } block), or its users' password hashes cannot be read");
    const config = parseFirebaseHashConfig(options.firebaseHashConfig);
    let n = 0;
    for (const file of files) {
      for await (const { where, user: u } of isCsv(file) ? csvUsers(file) : jsonUsers(file)) {
        const email = typeof u.email === "string" ? u.email : undefined;
        const verified = u.emailVerified === true;
        const joined = millis(u.createdAt);
        const facts: ImportFact[] = [];
        if (typeof u.passwordHash === "string" && typeof u.salt === "string") {
          facts.push({ fact: "password-hash", email, verified, hash: toFbScrypt(u.passwordHash, u.salt, config), timeJoined: joined });
        }
        for (const p of Array.isArray(u.providerUserInfo) ? u.providerUserInfo.map(jsonObject) : []) {
          if (!p || p.providerId === "password" || p.providerId === "phone" || typeof p.rawId !== "string") continue;
          facts.push({ fact: "provider-identity", email: typeof p.email === "string" ? p.email : email, verified, provider: providerId(String(p.providerId)), subject: p.rawId, timeJoined: joined });
        }
        if (facts.length === 0 && email) facts.push({ fact: "address-only", email, verified, timeJoined: joined });
        yield toInput(++n, where, { id: u.localId, email, verified, timeJoined: joined, facts, metadata: jsonObject(u.customAttributes) });
      }
    }
  },
};
