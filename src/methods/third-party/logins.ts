import type { Login, LoginKind } from "../../core/logins.js";
import { providerResetNotice } from "./reset-notice.js";
import { prepareListQuery } from "../../store/prepared.js";

/** A provider's login in the USER object: which provider, and the person's id there. */
export interface ThirdPartyRef { id: string; userId: string }

declare module "../../core/users.js" {
  interface LoginMethod {
    /** A provider's login: the provider and the user's id there (PROTOCOL.md §6). */
    thirdParty?: ThirdPartyRef;
  }
}

const refOf = (l: Login) => l.fields?.thirdParty as ThirdPartyRef;

/** Logins with a provider, as the kernel lists them (core/logins.ts). */
export const providerLogins: LoginKind = {
  recipeId: "thirdparty",
  names: { short: "third-party", label: "Third-party", signsInWith: "a third-party provider" },
  // The id of its name on My account (words/), {provider} filled in by the page.
  accountLabel: "thirdParty.login",
  which: (m) => (m.thirdParty ? { id: m.thirdParty.id, detail: `user ${m.thirdParty.userId}` } : undefined),
  list: async (db, userIds) => {
    const { rows } = await listQuery(db, userIds);
    return rows.map((r) => ({
      recipeId: "thirdparty", recipeUserId: r.user_id, email: r.email, createdAt: Number(r.created_at), phrase: `${r.provider_id} sign-in`,
      provider: r.provider_id, fields: { thirdParty: { id: r.provider_id, userId: r.provider_user_id } },
    }));
  },
  // An address is one person's: a login at it belongs to someone (an import, a lazy migration).
  addressOwners: (db, emails) => db.selectFrom("third_party_identities").select(["email", "user_id"]).where("email", "in", emails),
  // The provider's address may not be the user's current one; an operator finds the user by it too.
  findByAddress: (db, email) => db.selectFrom("third_party_identities").select("user_id").where("email", "=", email),
  // The USER object lists every provider login of the person at its top.
  userFields: (logins) => ({ thirdParty: logins.map(refOf) }),
  // A password reset at an address that only signs in with providers: a mail naming them instead.
  recoveryNotice: providerResetNotice,
};

// Every sign-in and sign-up lists the person's logins (store/prepared.ts).
const listQuery = prepareListQuery<{ user_id: string; email: string; created_at: number; provider_id: string; provider_user_id: string }>((db, userIds) =>
  db.selectFrom("third_party_identities").select(["user_id", "email", "created_at", "provider_id", "provider_user_id"])
    .where("user_id", "in", userIds).orderBy("created_at"));
