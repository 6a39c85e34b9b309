import { Command } from "commander";
import type { App } from "../app.js";
import { listUserSessions, revokeSessionByHandle, signOutEverywhere } from "../core/session-admin.js";
import { countEnded, describeEnded } from "../core/ways-in.js";
import { findUsersByRef } from "../core/user-directory.js";
import { loginRef } from "../core/logins.js";
import type { UserView } from "../core/users.js";
import { withApp, printJson } from "./context.js";
import { addAdminSubcommand } from "./options.js";
import { addUserArgument, pickUserRef } from "./user-arg.js";
import { CliError, type CliIO } from "./io.js";

/**
 * The one user `--user` names. An address shared by several users (a password login's user and a
 * provider's) is never resolved by guessing: they are listed and the id is asked for.
 */
async function resolveUser(app: App, ref: string): Promise<UserView> {
  const found = await findUsersByRef(app.ctx, ref);
  if (found.length === 0) throw new CliError(`no user ${ref}`);
  if (found.length > 1) {
    const lines = found.map((u) => `  ${u.id}  ${u.loginMethods.map((m) => loginRef(app.ctx.logins, m)).join(",")}`);
    throw new CliError(`${ref} belongs to ${found.length} users; pass one of their ids with --user:\n${lines.join("\n")}`);
  }
  return found[0];
}

const iso = (ms: number | null) => (ms === null ? "-" : new Date(ms).toISOString());

/** `authsvc sessions list <email-or-id>` and `authsvc sessions revoke <email-or-id> | --session HANDLE`. */
export function sessionsCommand(io: CliIO): Command {
  const sessions = new Command("sessions").description("list or revoke a user's sessions");
  const sub = (name: string, desc: string) => addAdminSubcommand(sessions, name, desc);
  const list = addUserArgument(sub("list", "list a user's live sessions, newest first"), ["user"]);
  list.action(async (ref, flags) => {
    const who = pickUserRef(io, list, ref, flags)!;
    return withApp(flags, io, async (app) => {
      const user = await resolveUser(app, who);
      const found = await listUserSessions(app.ctx, user.id);
      if (flags.json) return printJson(io, { userId: user.id, email: user.email, sessions: found });
      if (found.length === 0) return io.out(`no live sessions for ${user.email} (${user.id})`);
      for (const s of found) io.out(`${s.handle}  created ${iso(s.createdAt)}  last refreshed ${iso(s.lastRefreshedAt)}  expires ${iso(s.expiresAt)}${s.supportBy ? `  support session by ${s.supportBy}` : ""}`);
    });
  });
  const revoke = addUserArgument(sub("revoke", "sign a user out everywhere (every session, every app they allowed), or revoke one session (--session); their refresh tokens stop working"), ["user"])
    .option("--session <handle>", "revoke this one session");
  revoke.action(async (ref, flags) => {
    // Checked before the database is opened: a usage error changes nothing.
    const who = pickUserRef(io, revoke, ref, flags, false);
    if ((who !== undefined) === !!flags.session) throw new CliError("name a user (authsvc sessions revoke <email-or-id>) or give --session <handle>, not both", 2);
    return withApp(flags, io, async (app) => {
      if (flags.session) {
        const r = await revokeSessionByHandle(app.ctx, flags.session, "cli");
        if (r.status === "not_found") throw new CliError(`no session ${flags.session}`);
        if (flags.json) return printJson(io, { handle: flags.session, userId: r.userId, revoked: r.status === "revoked" });
        return io.out(r.status === "revoked" ? `revoked session ${flags.session}` : `session ${flags.session} had already ended`);
      }
      const user = await resolveUser(app, who!);
      const ended = await signOutEverywhere(app.ctx, user.id, "cli");
      const counts = countEnded(ended);
      if (flags.json) return printJson(io, { userId: user.id, email: user.email, revoked: counts.sessions ?? 0, ended: counts });
      io.out(`signed ${user.email} (${user.id}) out everywhere: ended ${describeEnded(app.ctx, ended)}`);
    });
  });
  return sessions;
}
