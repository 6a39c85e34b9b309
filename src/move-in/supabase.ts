import { isPostgresUrl } from "../store/database.js";
import type { ImportFact } from "../core/import-parts.js";
import { compact, jsonObject, millis, MoveInError, providerId, readCsv, toInput } from "./common.js";
import { openSourceDb, sourceDbError } from "./source-db.js";
import type { MovedInput, MovedPerson, MoveInSource } from "./source.js";

/** A row of auth.users, auth.identities or auth.mfa_factors: CSV text, or the driver's values. */
type Row = { [column: string]: unknown };
const PAGE = 1000;
const WHAT = "Supabase's database";
const text = (v: unknown) => (typeof v === "string" && v !== "" ? v : undefined);

/** One auth.users row with its identities and MFA factors: what Supabase knows of the person. */
function toPerson(u: Row, identities: Row[], factors: Row[]): MovedPerson {
  const email = text(u.email);
  const verified = Boolean(u.email_confirmed_at);
  const joined = millis(u.created_at);
  const facts: ImportFact[] = [];
  if (text(u.encrypted_password)) facts.push({ fact: "password-hash", email, verified, hash: u.encrypted_password, timeJoined: joined });
  for (const identity of identities) {
    if (identity.provider === "email" || identity.provider === "phone") continue;
    const data = jsonObject(identity.identity_data) ?? {};
    const subject = text(identity.provider_id) ?? (typeof data.sub === "string" ? data.sub : undefined);
    facts.push({ fact: "provider-identity", email: text(identity.email) ?? (typeof data.email === "string" ? data.email : email), verified: data.email_verified === true || verified, provider: providerId(String(identity.provider)), subject, timeJoined: millis(identity.created_at) ?? joined });
  }
  if (facts.length === 0 && email) facts.push({ fact: "address-only", email, verified, timeJoined: joined });
  // Supabase's factor_type names the kind of factor; only verified app secrets move.
  for (const f of factors) if (f.factor_type === "totp" && f.status === "verified" && text(f.secret)) facts.push({ fact: "authenticator-secret", secret: f.secret, name: text(f.friendly_name) });
  return { id: u.id, email, verified, timeJoined: joined, facts, metadata: compact({ user_metadata: jsonObject(u.raw_user_meta_data), app_metadata: jsonObject(u.raw_app_meta_data) }) };
}

const byUser = (rows: Row[]) => {
  const m = new Map<string, Row[]>();
  for (const r of rows) m.set(String(r.user_id), [...(m.get(String(r.user_id)) ?? []), r]);
  return m;
};

/** The CSV exports, in any order (each recognised by its columns). */
async function* fromCsv(files: string[]): AsyncIterable<MovedInput> {
  let users: Row[] | undefined;
  const identities: Row[] = [], factors: Row[] = [];
  for (const file of files) {
    const rows = readCsv(file);
    const columns = new Set(Object.keys(rows[0] ?? {}));
    if (columns.has("encrypted_password")) users = [...(users ?? []), ...rows];
    else if (columns.has("identity_data") && columns.has("provider")) identities.push(...rows);
    else if (columns.has("factor_type")) factors.push(...rows);
    else throw new MoveInError(`${file} is not an export of auth.users, auth.identities or auth.mfa_factors (no encrypted_password, identity_data or factor_type column)`);
  }
  if (!users) throw new MoveInError("--from supabase needs the CSV export of auth.users (a file with an encrypted_password column)");
  const ids = byUser(identities), mfa = byUser(factors);
  let n = 0;
  for (const [i, u] of users.filter((x) => !x.deleted_at).entries()) yield toInput(++n, `auth.users row ${i + 1} (${String(u.id)})`, toPerson(u, ids.get(String(u.id)) ?? [], mfa.get(String(u.id)) ?? []));
}

/** The database itself: auth.users a page at a time (by id), with those users' identities and factors. */
async function* fromDatabase(url: string): AsyncIterable<MovedInput> {
  const db = openSourceDb(url, WHAT).withSchema("auth");
  let n = 0;
  try {
    for (let after: string | undefined; ;) {
      let users: Row[], identities: Row[], factors: Row[] = [];
      try {
        users = await db.selectFrom("users").selectAll().where("deleted_at", "is", null).$if(after !== undefined, (q) => q.where("id", ">", after)).orderBy("id").limit(PAGE).execute();
        if (users.length === 0) break;
        const ids = users.map((u) => u.id);
        identities = await db.selectFrom("identities").selectAll().where("user_id", "in", ids).orderBy("created_at").execute();
        factors = await db.selectFrom("mfa_factors").select(["user_id", "factor_type", "status", "secret", "friendly_name"]).where("user_id", "in", ids).orderBy("created_at").execute();
      } catch (err) { return sourceDbError(err, WHAT); }
      after = String(users[users.length - 1].id);
      const ids = byUser(identities), mfa = byUser(factors);
      for (const u of users) yield toInput(++n, `auth.users ${String(u.id)}`, toPerson(u, ids.get(String(u.id)) ?? [], mfa.get(String(u.id)) ?? []));
      if (users.length < PAGE) break;
    }
  } finally {
    await db.destroy();
  }
}

/**
 * Supabase Auth: its PostgreSQL database (a postgres:// URL: auth.users, auth.identities and
 * auth.mfa_factors read a page at a time), or CSV exports with header rows of those tables (as
 * `\copy (select * from auth.users) to 'users.csv' csv header` writes them), in any order.
 * encrypted_password is read as it is (bcrypt, Argon2 or $fbscrypt$); ids (UUIDs) are kept;
 * identities other than "email" are identities at their provider with the provider's subject;
 * verified authenticator-app factors keep their secret; raw_user_meta_data and raw_app_meta_data become metadata
 * (user_metadata, app_metadata). Deleted users (deleted_at set) stay behind.
 */
export const supabase: MoveInSource = {
  id: "supabase",
  files: "its database (a postgres:// URL), or CSV exports of auth.users, and optionally auth.identities and auth.mfa_factors",
  read(files) {
    if (files.some(isPostgresUrl)) {
      if (files.length !== 1) throw new MoveInError("--from supabase takes one database URL, or CSV files, not both");
      return fromDatabase(files[0]);
    }
    return fromCsv(files);
  },
};
