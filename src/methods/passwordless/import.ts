import { refuseImport as refuse, type ImportPart } from "../../core/import-parts.js";
import { insertRows } from "../../store/user-import.js";

/** A passwordless login of an imported row (sign-in by mailed code or link); `userId` as a password's. */
interface ImportedAddress { email: string; createdAt: number | undefined; userId?: string }

/** Logins by mailed codes in `users import` (core/import-parts.ts): at most one per row, its address alone. */
export const codeLoginImport: ImportPart<ImportedAddress> = {
  id: "passwordless",
  recipeId: "passwordless",
  login(_lm, at, held) {
    if (held) refuse("more than one passwordless login method");
    return { email: at.email, createdAt: at.createdAt, userId: at.userId };
  },
  // An address that signs in without a password elsewhere (move-in/): here it signs in by mailed code or link.
  takes: { "address-only": { login: () => ({}) } },
  addresses: (a) => [a.email],
  insert: (tx, people) => insertRows(tx, "passwordless_users", people.map(({ id, joined, part: a }) => (
    { user_id: a.userId ?? id, email: a.email, created_at: a.createdAt ?? joined }))),
};
