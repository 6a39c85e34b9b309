import type { FactLogin, ImportFact } from "../core/import-parts.js";
import { jsonObject, MoveInError, providerId, toInputs } from "./common.js";
import type { MovedPerson, MoveInSource } from "./source.js";
import { hasTable, withSupertokensDb } from "./supertokens-db.js";
import { moveSupertokensState } from "./supertokens-state.js";

type Q = <R>(text: string) => Promise<R[]>;
interface RecipeUser { user_id: string; primary_or_recipe_user_id: string; recipe_id: string; time_joined: string }
interface Method { user_id: string; email: string | null; time_joined: string; password_hash?: string; third_party_id?: string; third_party_user_id?: string; phone_number?: string | null }

const APP = "app_id = 'public'";

/**
 * A SuperTokens core's PostgreSQL database (`authsvc users import --from supertokens postgres://…`).
 * Every recipe user keeps its id: a person is the core's primary user (its id is the person's), and
 * each login method linked to it keeps its own id as a linked user (tokens carry it as `rsub`), so
 * the app's foreign keys and the SDKs see the same ids. Kept: password hashes as the core wrote them
 * (bcrypt or Argon2), third-party identities, passwordless addresses, verified addresses, metadata
 * and verified TOTP devices; then (supertokens-state.ts) roles, the access-token signing keys and
 * the live sessions.
 */
export const supertokens: MoveInSource = {
  id: "supertokens",
  files: "the core's PostgreSQL database URL (postgres://…, ?schema=NAME for postgresql_table_schema)",
  // Read whole (a core's people with their linked methods come from several tables), once per pass.
  async *read(files) {
    if (files.length !== 1) throw new MoveInError("--from supertokens takes one argument: the core's database URL");
    yield* await withSupertokensDb(files[0], async (q) => toInputs(await readPeople(q)));
  },
  afterImport: (ctx, files, opts) => withSupertokensDb(files[0], (q) => moveSupertokensState(ctx, q, opts)),
};

async function readPeople(q: Q): Promise<Array<{ where: string; person: MovedPerson }>> {
  if (!(await hasTable(q, "all_auth_recipe_users"))) throw new MoveInError("no all_auth_recipe_users table: not a SuperTokens core's database (or give ?schema=)");
  const users = await q<RecipeUser>(`select distinct on (user_id) user_id, primary_or_recipe_user_id, recipe_id, time_joined from all_auth_recipe_users where ${APP} order by user_id, tenant_id`);
  const byId = async (sql: string) => new Map((await q<Method>(sql)).map((r) => [r.user_id.trim(), r]));
  const ep = await byId(`select user_id, email, password_hash, time_joined from emailpassword_users where ${APP}`);
  const tp = await byId(`select user_id, email, third_party_id, third_party_user_id, time_joined from thirdparty_users where ${APP}`);
  const pl = await byId(`select user_id, email, phone_number, time_joined from passwordless_users where ${APP}`);
  const verified = new Set((await q<{ user_id: string; email: string }>(`select user_id, email from emailverification_verified_emails where ${APP}`)).map((r) => `${r.user_id}\n${r.email}`));
  const metadata = new Map((await q<{ user_id: string; user_metadata: string }>(`select user_id, user_metadata from user_metadata where ${APP}`)).map((r) => [r.user_id, r.user_metadata]));
  const secrets = new Map<string, ImportFact[]>();
  if (await hasTable(q, "totp_user_devices")) {
    for (const d of await q<{ user_id: string; device_name: string; secret_key: string }>(`select user_id, device_name, secret_key from totp_user_devices where ${APP} and verified order by created_at, device_name`)) {
      secrets.set(d.user_id, [...(secrets.get(d.user_id) ?? []), { fact: "authenticator-secret", secret: d.secret_key, name: d.device_name }]);
    }
  }
  const people = new Map<string, RecipeUser[]>();
  for (const u of users) {
    const person = u.primary_or_recipe_user_id.trim();
    people.set(person, [...(people.get(person) ?? []), { ...u, user_id: u.user_id.trim() }]);
  }
  return [...people].map(([personId, members]) => {
    // The person's own method first, then the linked ones, oldest first.
    members.sort((a, b) => (a.user_id === personId ? -1 : b.user_id === personId ? 1 : Number(a.time_joined) - Number(b.time_joined)));
    // Each recipe user of the core is one fact about the person, read from its recipe's own table.
    const logins: ImportFact[] = [];
    for (const m of members) {
      const joined = Number(m.time_joined);
      const base = (email: string | null | undefined): FactLogin => ({ email: email ?? undefined, verified: !!email && verified.has(`${m.user_id}\n${email}`), timeJoined: joined, recipeUserId: m.user_id });
      if (m.recipe_id === "emailpassword" && ep.has(m.user_id)) logins.push({ fact: "password-hash", ...base(ep.get(m.user_id)!.email), hash: ep.get(m.user_id)!.password_hash });
      else if (m.recipe_id === "thirdparty" && tp.has(m.user_id)) {
        const r = tp.get(m.user_id)!;
        logins.push({ fact: "provider-identity", ...base(r.email), provider: providerId(r.third_party_id!), subject: r.third_party_user_id });
      } else if (m.recipe_id === "passwordless" && pl.has(m.user_id)) logins.push({ fact: "address-only", ...base(pl.get(m.user_id)!.email) });
      // The core's WebAuthn users have no fact here (the row says so); its phone-only passwordless users, no address.
    }
    const email = logins.find((m) => m.recipeUserId === personId && m.email)?.email ?? logins.find((m) => m.email)?.email;
    const first = Math.min(...members.map((m) => Number(m.time_joined)));
    return {
      where: `SuperTokens user ${personId}${logins.length < members.length ? ` (a login method without an email address, e.g. a phone number, is not moved)` : ""}`,
      person: { id: personId, email, timeJoined: first, facts: [...logins, ...(secrets.get(personId) ?? [])], metadata: jsonObject(metadata.get(personId)) },
    };
  });
}
