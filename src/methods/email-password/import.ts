import { hashObjectToStored } from "../../core/hash-formats/index.js";
import { refuseImport as refuse, type ImportPart } from "../../core/import-parts.js";
import { checkStoredHashFormat } from "../../core/passwords.js";
import { insertRows } from "../../store/user-import.js";

/** A password login of an imported row; `userId`: the linked user it belongs to, the person's own when absent. */
interface ImportedCredential { email: string; hash: string; createdAt: number | undefined; userId?: string }

/**
 * Password logins in `users import` (core/import-parts.ts): one per row, its hash ours
 * (bcrypt-sha384:$2b$…) or any format core/hash-formats/ reads, as the other system wrote it (kept
 * as it is and upgraded at the first sign-in), or an object another system exports its hashes as
 * (Keycloak's credential, Auth0's custom_password_hash: core/hash-formats hashObjectToStored, kept
 * as the string its format reads). A row may also be the short form {"email", "passwordHash", "verified"?}.
 */
export const passwordImport: ImportPart<ImportedCredential> = {
  id: "email-password",
  recipeId: "emailpassword",
  shortForm: {
    login: (o) => (o.passwordHash === undefined ? undefined : { recipeId: "emailpassword", email: o.email, passwordHash: o.passwordHash, verified: o.verified }),
    hint: "passwordHash for an email/password user",
  },
  login(lm, at, held) {
    if (held) refuse("more than one emailpassword login method");
    let hash = lm.passwordHash;
    if (hash && typeof hash === "object" && !Array.isArray(hash)) {
      const made = hashObjectToStored(hash as Record<string, unknown>);
      hash = "hash" in made ? made.hash : refuse(`${at.where}.passwordHash: ${made.refused}`);
    }
    if (typeof hash !== "string") return refuse(`${at.where}.passwordHash is missing`);
    const why = checkStoredHashFormat(hash);
    if (why) refuse(`${at.where}.${why}`);
    return { email: at.email, hash, createdAt: at.createdAt, userId: at.userId };
  },
  // Another system's password hash for an address (move-in/): a login method of ours with that hash.
  takes: { "password-hash": { login: (f) => ({ passwordHash: f.hash }) } },
  addresses: (c) => [c.email],
  insert: (tx, people, { now }) => insertRows(tx, "email_password_credentials", people.map(({ id, joined, part: c }) => (
    { user_id: c.userId ?? id, email: c.email, password_hash: c.hash, created_at: c.createdAt ?? joined, updated_at: now }))),
};
