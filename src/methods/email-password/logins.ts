import type { LoginKind } from "../../core/logins.js";
import { findCredentialByUserId, replacePasswordHash } from "./store.js";
import { prepareListQuery } from "../../store/prepared.js";

/** Password logins as the kernel lists them (core/logins.ts): never the hash. */
export const passwordLogins: LoginKind = {
  recipeId: "emailpassword",
  names: { short: "password", label: "Email and password", signsInWith: "a password" },
  // The id of its name on My account (words/).
  accountLabel: "password.label",
  list: async (db, userIds) => {
    const { rows } = await listQuery(db, userIds);
    return rows.map((r) => ({ recipeId: "emailpassword", recipeUserId: r.user_id, email: r.email, createdAt: Number(r.created_at), phrase: "a password" }));
  },
  // An export carries the hash, so the users can sign in with their passwords where it is imported.
  exported: async (db, userIds) => {
    const rows = await db.selectFrom("email_password_credentials").select(["user_id", "password_hash"]).where("user_id", "in", userIds).execute();
    return new Map(rows.map((r) => [r.user_id, { passwordHash: r.password_hash }]));
  },
  // The address alone signs a password login in: the user an operator means by it.
  signsInByAddress: true,
  // An address is one person's: a login at it belongs to someone (an import, a lazy migration).
  addressOwners: (db, emails) => db.selectFrom("email_password_credentials").select(["email", "user_id"]).where("email", "in", emails),
  findByAddress: (db, email) => db.selectFrom("email_password_credentials").select("user_id").where("email", "=", email),
  // What the self-service account checks, changes and readdresses (src/account/).
  password: {
    find: async (db, recipeUserId) => {
      const c = await findCredentialByUserId(db, recipeUserId);
      return c && { recipeUserId: c.user_id, email: c.email, hash: c.password_hash };
    },
    replaceHash: replacePasswordHash,
    setEmail: async (db, recipeUserId, email, now) => {
      await db.updateTable("email_password_credentials").set({ email, updated_at: now }).where("user_id", "=", recipeUserId).execute();
    },
  },
};

// Every sign-in and sign-up lists the person's logins (store/prepared.ts).
const listQuery = prepareListQuery<{ user_id: string; email: string; created_at: number }>((db, userIds) =>
  db.selectFrom("email_password_credentials").select(["user_id", "email", "created_at"]).where("user_id", "in", userIds));
