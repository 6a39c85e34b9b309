import { Command } from "commander";
import { AuthError } from "../core/errors.js";
import { loginRef } from "../core/logins.js";
import { deleteUser, listUsers, toUserJson, verifyUserEmail } from "../core/users.js";
import { linkUsers, unlinkUser } from "../core/linking-admin.js";
import { withApp, printJson } from "./context.js";
import { addAdminSubcommand } from "./options.js";
import { askYes, CliError, type CliIO } from "./io.js";
import { describeUser as describe, resolveUserRef as mustFind } from "./user-ref.js";
import { addTransferCommands } from "./users-transfer.js";
import { addRoomCommands } from "./room-commands.js";
import { addUsersCreateCommand } from "./create-user.js";

/** `authsvc users list | show | delete | verify | link | unlink | mfa reset | roles | metadata`. */
export function usersCommand(io: CliIO): Command {
  const users = new Command("users").description("list, inspect, delete and verify users");
  const sub = (name: string, desc: string) => addAdminSubcommand(users, name, desc);
  addUsersCreateCommand(users, io);
  sub("list", "list users, oldest first")
    .option("--limit <n>", "at most this many", "100")
    .option("--offset <n>", "skip this many", "0")
    .action(async (flags) => {
      // Checked before the database is opened: a usage error must not migrate or create anything.
      const limit = Number(flags.limit), offset = Number(flags.offset);
      if (!Number.isInteger(limit) || limit < 1 || !Number.isInteger(offset) || offset < 0) throw new CliError("--limit and --offset take whole numbers", 2);
      return withApp(flags, io, async (app) => {
        const list = await listUsers(app.ctx, { limit, offset });
        if (flags.json) return printJson(io, list.map(toUserJson));
        if (list.length === 0) return io.out("no users");
        for (const u of list) io.out(describe(app.ctx.logins, u));
      });
    });
  sub("show", "show one user by email or id").argument("<email-or-id>")
    .action(async (ref, flags) => withApp(flags, io, async (app) => {
      const u = await mustFind(app, ref);
      if (flags.json) return printJson(io, toUserJson(u));
      io.out(`id:        ${u.id}\nemail:     ${u.email}\nverified:  ${u.verified}\njoined:    ${new Date(u.timeJoined).toISOString()}\nlogin methods:`);
      for (const m of u.loginMethods) io.out(`  - ${loginRef(app.ctx.logins, m, { detail: true })}  ${m.email}  ${m.verified ? "verified" : "unverified"}  id ${m.recipeUserId}`);
    }));
  sub("delete", "delete a user and everything attached to them (asks first on a terminal; --yes otherwise)").argument("<email-or-id>")
    .option("-y, --yes", "do not ask (needed when not run on a terminal)")
    .action(async (ref, flags) => {
      // A script must say --yes: deleting is not undoable, and a pipe cannot answer a question.
      if (!flags.yes && !io.isTerminal) throw new CliError("users delete deletes for good; give --yes to confirm (no terminal to ask on)", 2);
      return withApp(flags, io, async (app) => {
        const u = await mustFind(app, ref);
        if (!flags.yes && !(await askYes(io, `delete ${describe(app.ctx.logins, u)} and all their sessions? type "yes" to confirm: `))) throw new CliError("not deleted");
        try { await deleteUser(app.ctx, u.id, "cli"); } catch (err) {
          // A room's refusal (the only owner of an organization): its reason, exit 1.
          if (err instanceof AuthError && err.code === "CONFLICT") throw new CliError(err.message);
          throw err;
        }
        if (flags.json) return printJson(io, { deleted: u.id });
        io.out(`deleted user ${u.id} <${u.email}>`);
      });
    });
  sub("verify", "mark a user's email address verified").argument("<email-or-id>")
    .action(async (ref, flags) => withApp(flags, io, async (app) => {
      const u = await mustFind(app, ref);
      const changed = await verifyUserEmail(app.ctx, u.id, "cli");
      if (flags.json) return printJson(io, { id: u.id, email: u.email, verified: true, changed });
      io.out(changed ? `verified ${u.email}` : `${u.email} was already verified`);
    }));
  sub("link", "make a second user's login methods part of a user (who keeps their id)").argument("<user-id>").argument("<other-user-id>")
    .action(async (primaryId, otherId, flags) => withApp(flags, io, async (app) => {
      const r = await linkUsers(app.ctx, primaryId.trim(), otherId.trim(), "cli");
      if (r.status === "NOT_FOUND") throw new CliError(`no user ${r.id}`);
      if (flags.json) return printJson(io, r);
      io.out(r.changed ? `linked ${otherId} into ${r.personId}` : `${otherId} is already part of ${r.personId}`);
    }));
  sub("unlink", "take one login method (by its id, see users show) out of its user: it becomes a user of its own").argument("<login-method-id>")
    .action(async (id, flags) => withApp(flags, io, async (app) => {
      const r = await unlinkUser(app.ctx, id.trim(), "cli");
      if (r.status === "NOT_FOUND") throw new CliError(`no user ${id}`);
      if (r.status === "NOT_LINKED") throw new CliError(`${id} is not linked to anyone`);
      if (flags.json) return printJson(io, r);
      io.out(`unlinked ${id}; the others are user ${r.remainingPersonId}`);
    }));
  addTransferCommands(users, io);
  addRoomCommands(users, io);
  return users;
}
