import type { ImportFact } from "../core/import-parts.js";
import { compact, millis, MoveInError, providerId, toInput, type SourceRecord } from "./common.js";
import { openSourceDb, sourceDbError } from "./source-db.js";
import type { MoveInSource } from "./source.js";

const PAGE = 1000;
const WHAT = "better-auth's database";
const yes = (v: unknown) => v === true || v === 1 || v === "1" || v === "true" || v === "t";

/**
 * better-auth: its tables `user` and `account` (the default names and camelCase columns of its
 * Kysely adapter), read from its SQLite file or a PostgreSQL URL, a page of users at a time. The
 * user id is kept; emailVerified and createdAt are kept; the `credential` account's password
 * (better-auth's scrypt `salt:hash`) is kept as it is; every other account (providerId google,
 * github…) is an identity at that provider with accountId as its subject; name and image become
 * metadata. A user with neither is an address alone. The authenticator secrets in `twoFactor`
 * are encrypted with better-auth's own secret and are not read: those users enrol again.
 */
export const betterAuth: MoveInSource = {
  id: "better-auth",
  files: "its database: the SQLite file, or a postgres:// URL (?schema= for another schema than public)",
  async *read(files) {
    if (files.length !== 1) throw new MoveInError("--from better-auth takes one database: its SQLite file or a postgres:// URL");
    const db = openSourceDb(files[0], WHAT);
    let n = 0;
    try {
      for (let after: string | undefined; ;) {
        let users: SourceRecord[], accounts: SourceRecord[];
        try {
          users = await db.selectFrom("user").selectAll().$if(after !== undefined, (q) => q.where("id", ">", after)).orderBy("id").limit(PAGE).execute();
          if (users.length === 0) break;
          accounts = await db.selectFrom("account").select(["userId", "providerId", "accountId", "password", "createdAt"]).where("userId", "in", users.map((u) => u.id)).orderBy("createdAt").execute();
        } catch (err) { return sourceDbError(err, WHAT); }
        after = users[users.length - 1].id as string;
        const byUser = new Map<string, SourceRecord[]>();
        for (const a of accounts) byUser.set(String(a.userId), [...(byUser.get(String(a.userId)) ?? []), a]);
        for (const u of users) {
          const email = typeof u.email === "string" ? u.email : undefined;
          const verified = yes(u.emailVerified);
          const joined = millis(u.createdAt);
          const facts: ImportFact[] = [];
          for (const a of byUser.get(String(u.id)) ?? []) {
            if (a.providerId === "credential") {
              if (typeof a.password === "string" && a.password) facts.push({ fact: "password-hash", email, verified, hash: a.password, timeJoined: millis(a.createdAt) ?? joined });
            } else {
              facts.push({ fact: "provider-identity", email, verified, provider: providerId(String(a.providerId)), subject: String(a.accountId), timeJoined: millis(a.createdAt) ?? joined });
            }
          }
          if (facts.length === 0 && email) facts.push({ fact: "address-only", email, verified, timeJoined: joined });
          const metadata = compact({ name: typeof u.name === "string" && u.name ? u.name : undefined, image: typeof u.image === "string" && u.image ? u.image : undefined });
          yield toInput(++n, `user ${String(u.id)}`, { id: String(u.id), email, verified, timeJoined: joined, facts, metadata });
        }
        if (users.length < PAGE) break;
      }
    } finally {
      await db.destroy();
    }
  },
};
