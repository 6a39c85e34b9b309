import type { App } from "../app.js";
import { findUsersByRef, type UserView } from "../core/users.js";
import { CliError } from "./io.js";
import { loginRef, type LoginKind } from "../core/logins.js";

/** One line per user: id, email, verified, login methods, when they joined. */
export function describeUser(kinds: readonly LoginKind[], u: UserView): string {
  const methods = u.loginMethods.map((m) => loginRef(kinds, m)).join(",");
  return `${u.id}  ${u.email}  ${u.verified ? "verified" : "unverified"}  ${methods}  joined ${new Date(u.timeJoined).toISOString()}`;
}

/**
 * The one user an admin command means. An email that belongs to several users (a password login's
 * and a provider's) is not guessed: the command fails, listing them, and asks for the id.
 */
export async function resolveUserRef(app: App, ref: string): Promise<UserView> {
  const found = await findUsersByRef(app.ctx, ref);
  if (found.length === 0) throw new CliError(`no user ${ref}`);
  if (found.length > 1) {
    throw new CliError(`${ref} belongs to ${found.length} users; give the id of the one you mean:\n${found.map((u) => `  ${describeUser(app.ctx.logins, u)}`).join("\n")}`);
  }
  return found[0];
}
