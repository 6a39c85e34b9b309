import type { ImportFact } from "../core/import-parts.js";
import { isPostgresUrl } from "../store/database.js";
import { compact, jsonObject, millis, MoveInError, providerId, readJsonFile, type SourceRecord } from "./common.js";
import { readKratosDatabase } from "./kratos-db.js";
import type { MovedInput, MovedPerson, MoveInSource } from "./source.js";

const text = (v: unknown) => (typeof v === "string" && v !== "" ? v : undefined);
const list = (v: unknown) => (Array.isArray(v) ? v.map(jsonObject).filter((x): x is SourceRecord => x !== undefined) : []);

/**
 * Kratos' own names for two PBKDF2 digests are not what they say: its "sha224" and "sha384" are
 * SHA3-224 and SHA3-384 (hash/hasher_pbkdf2.go, kept for its imported hashes), so a hash it
 * stored is renamed to what it is before it is kept.
 */
function kratosHash(hash: string): string {
  return hash.replace(/^\$pbkdf2-sha(224|384)\$/, "$pbkdf2-sha3-$1$");
}

/** An otpauth:// URL's secret, if it is a TOTP app authsvc can take (SHA1, 6 digits, 30 s), else why not. */
function totpSecret(url: string): { secret: string } | { refused: string } {
  let u: URL;
  try { u = new URL(url); } catch { return { refused: "its totp credential's totp_url is not a URL" }; }
  const p = u.searchParams, secret = p.get("secret");
  const odd = [p.get("algorithm") && p.get("algorithm")!.toUpperCase() !== "SHA1" && `algorithm ${p.get("algorithm")}`, p.get("digits") && p.get("digits") !== "6" && `${p.get("digits")} digits`, p.get("period") && p.get("period") !== "30" && `a period of ${p.get("period")} s`].filter(Boolean);
  if (u.protocol !== "otpauth:" || u.host !== "totp" || !secret) return { refused: "its totp credential's totp_url is not an otpauth://totp/ URL with a secret" };
  if (odd.length) return { refused: `its totp credential uses ${odd.join(", ")}; authsvc's authenticator codes are SHA1, 6 digits, 30 s` };
  return { secret };
}

/**
 * One identity as the admin API writes it (GET /admin/identities?include_credential=password&
 * include_credential=oidc; the database reader makes the same shape): what Kratos knows of the
 * person, or why they do not move.
 */
function kratosPerson(i: SourceRecord): MovedPerson | string {
  const traits = jsonObject(i.traits) ?? {};
  const credentials = jsonObject(i.credentials) ?? {};
  const password = jsonObject(credentials.password), oidc = jsonObject(credentials.oidc), totp = jsonObject(credentials.totp);
  const addresses = list(i.verifiable_addresses);
  const email = text(traits.email) ?? text(addresses.find((a) => a.via === "email")?.value)
    ?? (Array.isArray(password?.identifiers) ? (password!.identifiers as unknown[]).find((x): x is string => typeof x === "string" && x.includes("@")) : undefined);
  if (!email) return `identity ${String(i.id)} has no email address in its traits, verifiable addresses or password identifiers`;
  if (i.state !== undefined && i.state !== "active") return `identity ${String(i.id)} is ${String(i.state)} in Kratos: activate it there first, or leave it out`;
  const verified = addresses.some((a) => String(a.value).toLowerCase() === email.toLowerCase() && a.verified === true);
  const joined = millis(i.created_at);
  const facts: ImportFact[] = [];
  const hashed = text(jsonObject(password?.config)?.hashed_password);
  if (hashed) facts.push({ fact: "password-hash", email, verified, hash: kratosHash(hashed), timeJoined: joined });
  for (const p of list(jsonObject(oidc?.config)?.providers)) {
    if (text(p.provider) && p.subject !== undefined) facts.push({ fact: "provider-identity", email, verified, provider: providerId(p.provider as string), subject: p.subject, timeJoined: joined });
  }
  if (facts.length === 0) facts.push({ fact: "address-only", email, verified, timeJoined: joined });
  const url = text(jsonObject(totp?.config)?.totp_url);
  if (url) {
    const t = totpSecret(url);
    if ("refused" in t) return `identity ${String(i.id)}: ${t.refused}`;
    facts.push({ fact: "authenticator-secret", secret: t.secret });
  }
  const { email: _email, ...otherTraits } = traits;
  const metadata = compact({ traits: compact(otherTraits), metadata_public: jsonObject(i.metadata_public), metadata_admin: jsonObject(i.metadata_admin) });
  return { id: i.id, email, verified, timeJoined: joined, facts, metadata };
}

/** Identities from JSON files of the admin API's answers (each an array of identities, e.g. one per page). */
async function* fromFiles(files: string[]): AsyncIterable<{ where: string; identity: SourceRecord | undefined }> {
  for (const file of files) {
    const doc = readJsonFile(file);
    if (!Array.isArray(doc)) throw new MoveInError(`${file} is not a JSON array of Kratos identities (GET /admin/identities?include_credential=password&include_credential=oidc)`);
    for (const [k, raw] of doc.entries()) {
      const identity = jsonObject(raw);
      yield { where: `${file} [${k}]${identity && text(identity.id) ? ` (${identity.id as string})` : ""}`, identity };
    }
  }
}

/** Each identity read as a row of the import: the person, or why not. */
async function* toRows(identities: AsyncIterable<{ where: string; identity: SourceRecord | undefined }>): AsyncIterable<MovedInput> {
  let n = 0;
  for await (const { where, identity } of identities) {
    const person = identity ? kratosPerson(identity) : "not a JSON object";
    n++;
    yield typeof person === "string" ? { line: n, where, refused: person } : { line: n, where, person };
  }
}

/**
 * Ory Kratos: the admin API's identities with their credentials (JSON files of
 * `GET /admin/identities?include_credential=password&include_credential=oidc`, one per page), or
 * its PostgreSQL database itself (a postgres:// URL, read a page at a time, read-only). Ids (UUIDs)
 * are kept; the password hash is kept as Kratos stored it (Argon2, bcrypt, PBKDF2, scrypt, LDAP
 * {SSHA…}); OIDC providers are identities at their provider with their subject; a TOTP credential
 * (when included) is an authenticator secret; the address is the traits' email, verified when its
 * verifiable address is; the other traits and both metadata become metadata. Inactive identities
 * and identities without an address are refused.
 */
export const kratos: MoveInSource = {
  id: "kratos",
  files: "JSON files of the admin API's identities (include_credential=password and oidc), or its database (a postgres:// URL)",
  read(files) {
    if (files.some(isPostgresUrl)) {
      if (files.length !== 1) throw new MoveInError("--from kratos takes one database URL, or JSON files, not both");
      return toRows(readKratosDatabase(files[0]));
    }
    return toRows(fromFiles(files));
  },
};
