// Seeds a migrated SQLite file with `count` users who share one password hash, by direct inserts in
// one transaction (signing up a million users over HTTP would take hours). The hash is the one
// `authsvc create-user` stored for user0, so it is in the server's own format.
import { createHash, randomBytes, randomUUID } from "node:crypto";
import Database from "better-sqlite3";

export async function seedUsers(file, count) {
  const db = new Database(file);
  const { password_hash: hash } = db.prepare("select password_hash from email_password_credentials where email = 'user0@example.com'").get();
  db.pragma("synchronous = OFF"); // seeding only; the server opens the file with its own settings
  const user = db.prepare("insert into users (id, email, time_joined, updated_at) values (?, ?, ?, ?)");
  const cred = db.prepare("insert into email_password_credentials (user_id, email, password_hash, created_at, updated_at) values (?, ?, ?, ?, ?)");
  const now = Date.now();
  db.transaction(() => {
    for (let i = 1; i < count; i++) {
      const id = `seed-${i.toString(36).padStart(8, "0")}`;
      const email = `user${i}@example.com`;
      user.run(id, email, now, now);
      cred.run(id, email, hash, now, now);
    }
  })();
  db.pragma("wal_checkpoint(TRUNCATE)");
  db.close();
}

/**
 * Starts `count` sessions for the user with `email` by direct inserts (a sign-in each would cost a
 * bcrypt verification) and returns their refresh tokens. The refresh scenario uses up tokens: every
 * request in flight when a measurement stops has rotated a token whose successor is never read.
 */
export function mintSessions(file, email, count) {
  const db = new Database(file, { timeout: 10_000 });
  const { id: userId } = db.prepare("select id from users where email = ?").get(email);
  const session = db.prepare("insert into sessions (handle, user_id, created_at, expires_at, last_refreshed_at, revoked_at, revoke_reason) values (?, ?, ?, ?, null, null, null)");
  const token = db.prepare("insert into refresh_tokens (token_hash, session_handle, parent_hash, created_at, expires_at, rotated_at) values (?, ?, null, ?, ?, null)");
  const now = Date.now();
  const tokens = [];
  db.transaction(() => {
    for (let i = 0; i < count; i++) {
      const handle = randomUUID();
      const t = randomBytes(32).toString("base64url");
      session.run(handle, userId, now, now + 86_400_000);
      token.run(createHash("sha256").update(t).digest("hex"), handle, now, now + 86_400_000);
      tokens.push(t);
    }
  })();
  db.close();
  return tokens;
}
