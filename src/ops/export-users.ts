import type { Store } from "../store/database.js";
import { listUsersAfter, loadUserDetails, type UserKey } from "../store/user-pages.js";
import { buildUserViews } from "../core/user-directory.js";
import type { UserRecord } from "./user-record.js";

/**
 * Every user as an export record (user-record.ts), oldest first, read in keyset pages of
 * `batchSize`: memory stays flat however many users there are. Users added while it runs appear
 * if they sort after the current page.
 */
export async function* exportUsers(store: Store, opts: { batchSize?: number } = {}): AsyncGenerator<UserRecord[]> {
  const batchSize = opts.batchSize ?? 1000;
  let after: UserKey | undefined;
  for (;;) {
    const rows = await listUsersAfter(store.db, { after, limit: batchSize });
    if (rows.length === 0) return;
    const details = await loadUserDetails(store.db, rows.map((r) => r.id));
    const hashes = new Map(details.credentials.map((c) => [c.user_id, c.password_hash]));
    yield buildUserViews(rows, details).map((u) => ({
      id: u.id,
      email: u.email,
      timeJoined: u.timeJoined,
      verified: u.verified,
      // Passkeys are bound to this server's RP ID and stay out of the export (docs/passkeys.md).
      loginMethods: u.loginMethods.flatMap((m) => (m.recipeId === "webauthn" ? [] : [{ ...m, recipeId: m.recipeId }])).map((m) => ({
        recipeId: m.recipeId,
        email: m.email,
        verified: m.verified,
        timeJoined: m.timeJoined,
        ...(m.recipeId === "emailpassword" ? { passwordHash: hashes.get(m.recipeUserId)! } : {}),
        ...(m.thirdParty ? { thirdParty: m.thirdParty } : {}),
      })),
    }));
    const last = rows[rows.length - 1];
    after = { timeJoined: Number(last.time_joined), id: last.id };
    if (rows.length < batchSize) return;
  }
}
