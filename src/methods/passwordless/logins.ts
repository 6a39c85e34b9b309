import type { LoginKind } from "../../core/logins.js";
import { prepareListQuery } from "../../store/prepared.js";

/** Logins by codes mailed to an address, as the kernel lists them (core/logins.ts). */
export const codeLogins: LoginKind = {
  recipeId: "passwordless",
  names: { short: "sign-in code", label: "Sign-in code by mail", signsInWith: "sign-in codes by mail" },
  accountLabel: "code.login",
  list: async (db, userIds) => {
    const { rows } = await listQuery(db, userIds);
    return rows.map((r) => ({ recipeId: "passwordless", recipeUserId: r.user_id, email: r.email, createdAt: Number(r.created_at), phrase: "sign-in codes by mail" }));
  },
  // An address is one person's: a login at it belongs to someone (an import, a lazy migration).
  addressOwners: (db, emails) => db.selectFrom("passwordless_users").select(["email", "user_id"]).where("email", "in", emails),
};

// Every sign-in and sign-up lists the person's logins (store/prepared.ts).
const listQuery = prepareListQuery<{ user_id: string; email: string; created_at: number }>((db, userIds) =>
  db.selectFrom("passwordless_users").select(["user_id", "email", "created_at"]).where("user_id", "in", userIds));
