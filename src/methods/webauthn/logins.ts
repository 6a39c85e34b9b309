import type { LoginKind } from "../../core/logins.js";
import { prepareListQuery } from "../../store/prepared.js";

declare module "../../core/users.js" {
  interface LoginMethod {
    /** A passkey login: the ids of its passkeys (PROTOCOL.md §6). */
    webauthn?: { credentialIds: string[] };
  }
}

/** Passkey logins as the kernel lists them (core/logins.ts): the ids of their passkeys, never a key. */
export const passkeyLogins: LoginKind = {
  recipeId: "webauthn",
  names: { short: "passkey", label: "Passkey", signsInWith: "a passkey" },
  accountLabel: "passkey.login",
  extent: (m) => String(m.webauthn?.credentialIds.length ?? 0),
  list: async (db, userIds) => {
    const [accounts, credentials] = await Promise.all([
      accountsQuery(db, userIds).then((r) => r.rows),
      credentialsQuery(db, userIds).then((r) => r.rows),
    ]);
    return accounts.map((a) => {
      const credentialIds = credentials.filter((c) => c.user_id === a.user_id).map((c) => c.id);
      return {
        recipeId: "webauthn", recipeUserId: a.user_id, email: a.email, createdAt: Number(a.created_at), phrase: "a passkey",
        keys: credentialIds.length, fields: { webauthn: { credentialIds } },
      };
    });
  },
  // An address is one person's: a login at it belongs to someone (an import, a lazy migration).
  addressOwners: (db, emails) => db.selectFrom("webauthn_accounts").select(["email", "user_id"]).where("email", "in", emails),
  // A recovery proved the login that received the mail, not the passkeys someone else may have added.
  removeUnprovenKeys: async (db, userId, keep) => {
    let q = db.selectFrom("webauthn_credentials").select("id").where("user_id", "=", userId);
    if (keep !== undefined) q = q.where("id", "!=", keep);
    const ids = (await q.execute()).map((r) => r.id);
    if (ids.length > 0) await db.deleteFrom("webauthn_credentials").where("id", "in", ids).execute();
    return ids;
  },
  // Passkeys are bound to this server's RP ID and stay out of an export (docs/passkeys.md).
  exported: false,
  // The USER object lists every passkey of the person at its top, even when there is none.
  userFields: (logins) => ({ webauthn: { credentialIds: logins.flatMap((l) => (l.fields?.webauthn as { credentialIds: string[] }).credentialIds) } }),
};

// Every sign-in and sign-up lists the person's logins (store/prepared.ts).
const accountsQuery = prepareListQuery<{ user_id: string; email: string; created_at: number }>((db, userIds) =>
  db.selectFrom("webauthn_accounts").select(["user_id", "email", "created_at"]).where("user_id", "in", userIds));
const credentialsQuery = prepareListQuery<{ user_id: string; id: string }>((db, userIds) =>
  db.selectFrom("webauthn_credentials").select(["user_id", "id"]).where("user_id", "in", userIds).orderBy("created_at").orderBy("id"));
