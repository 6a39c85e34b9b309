import type { CoreContext } from "../core/context.js";
import { loadUserViews } from "../core/user-directory.js";
import { listUsersAfter, type UserKey } from "../store/user-pages.js";
import type { RecordLoginMethod, UserRecord } from "./user-record.js";

/**
 * Every user as an export record (user-record.ts), oldest first, read in keyset pages of
 * `batchSize`: memory stays flat however many users there are. Users added while it runs appear
 * if they sort after the current page. Each kind of login says what its records carry, or that it
 * stays out (LoginKind.exported).
 */
export async function* exportUsers(ctx: Pick<CoreContext, "store" | "logins">, opts: { batchSize?: number } = {}): AsyncGenerator<UserRecord[]> {
  const { store } = ctx;
  const kinds = new Map(ctx.logins.map((k) => [k.recipeId, k]));
  const batchSize = opts.batchSize ?? 1000;
  let after: UserKey | undefined;
  for (;;) {
    const rows = await listUsersAfter(store.db, { after, limit: batchSize });
    if (rows.length === 0) return;
    const users = await loadUserViews(store.db, ctx.logins, rows);
    const ids = users.flatMap((u) => u.loginMethods.map((m) => m.recipeUserId));
    const extra = new Map<string, Map<string, Record<string, unknown>>>();
    for (const k of ctx.logins) if (k.exported) extra.set(k.recipeId, await k.exported(store.db, ids));
    yield users.map((u) => ({
      id: u.id,
      email: u.email,
      timeJoined: u.timeJoined,
      verified: u.verified,
      loginMethods: u.loginMethods.filter((m) => kinds.get(m.recipeId)?.exported !== false)
        .map(({ recipeId, recipeUserId, email, verified, timeJoined, ...fields }) => ({
          recipeId, email, verified, timeJoined, ...extra.get(recipeId)?.get(recipeUserId), ...fields,
        }) as RecordLoginMethod),
    }));
    const last = rows[rows.length - 1];
    after = { timeJoined: Number(last.time_joined), id: last.id };
    if (rows.length < batchSize) return;
  }
}
