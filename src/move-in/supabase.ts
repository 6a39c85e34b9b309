import { compact, jsonObject, millis, MoveInError, providerId, readCsv, toInputs, type SourceRecord } from "./common.js";
import type { MoveInSource } from "./source.js";

type Row = { [column: string]: string };

/**
 * Supabase Auth: CSV exports (with header rows, as `\copy (select * from auth.users) to 'users.csv'
 * csv header` writes them) of auth.users, and optionally auth.identities and auth.mfa_factors,
 * in any order (each is recognised by its columns). encrypted_password is read as it is (bcrypt,
 * Argon2 or $fbscrypt$); ids (UUIDs) are kept; identities other than "email" become third-party
 * logins with the provider's subject; verified TOTP factors keep their secret; raw_user_meta_data
 * and raw_app_meta_data become metadata (user_metadata, app_metadata).
 */
export const supabase: MoveInSource = {
  id: "supabase",
  files: "CSV exports of auth.users, and optionally auth.identities and auth.mfa_factors",
  async *read(files) {
    let users: Row[] | undefined;
    const identities = new Map<string, Row[]>(), factors = new Map<string, Row[]>();
    const group = (into: Map<string, Row[]>, row: Row) => { const list = into.get(row.user_id) ?? []; list.push(row); into.set(row.user_id, list); };
    for (const file of files) {
      const rows = readCsv(file);
      const columns = new Set(Object.keys(rows[0] ?? {}));
      if (columns.has("encrypted_password")) users = [...(users ?? []), ...rows];
      else if (columns.has("identity_data") && columns.has("provider")) rows.forEach((r) => group(identities, r));
      else if (columns.has("factor_type")) rows.forEach((r) => group(factors, r));
      else throw new MoveInError(`${file} is not an export of auth.users, auth.identities or auth.mfa_factors (no encrypted_password, identity_data or factor_type column)`);
    }
    if (!users) throw new MoveInError("--from supabase needs the CSV export of auth.users (a file with an encrypted_password column)");
    yield* toInputs(users.filter((u) => !u.deleted_at).map((u, i) => {
      const email = u.email || undefined;
      const verified = Boolean(u.email_confirmed_at);
      const joined = millis(u.created_at);
      const methods: SourceRecord[] = [];
      if (u.encrypted_password) methods.push({ recipeId: "emailpassword", email, verified, passwordHash: u.encrypted_password, timeJoined: joined });
      for (const identity of identities.get(u.id) ?? []) {
        if (identity.provider === "email" || identity.provider === "phone") continue;
        const data = jsonObject(identity.identity_data) ?? {};
        const subject = identity.provider_id || (typeof data.sub === "string" ? data.sub : undefined);
        methods.push({ recipeId: "thirdparty", email: identity.email || (typeof data.email === "string" ? data.email : email), verified: data.email_verified === true || verified, thirdParty: { id: providerId(identity.provider), userId: subject }, timeJoined: millis(identity.created_at) ?? joined });
      }
      if (methods.length === 0 && email) methods.push({ recipeId: "passwordless", email, verified, timeJoined: joined });
      const totp = (factors.get(u.id) ?? []).filter((f) => f.factor_type === "totp" && f.status === "verified" && f.secret).map((f) => ({ secret: f.secret, name: f.friendly_name || undefined }));
      return {
        where: `auth.users row ${i + 1} (${u.id})`,
        record: compact({ id: u.id, email, verified, timeJoined: joined, loginMethods: methods, totp: totp.length ? totp : undefined, metadata: compact({ user_metadata: jsonObject(u.raw_user_meta_data), app_metadata: jsonObject(u.raw_app_meta_data) }) }),
      };
    }));
  },
};
