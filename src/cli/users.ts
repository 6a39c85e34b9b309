import { Command } from "commander";
import { deleteUser, findUser, listUsers, toUserJson, verifyUserEmail, type UserView } from "../core/users.js";
import { withApp, printJson } from "./context.js";
import { addAdminSubcommand } from "./options.js";
import { CliError, type CliIO } from "./io.js";
import { addTransferCommands } from "./users-transfer.js";

function describe(u: UserView): string {
  const methods = u.loginMethods.map((m) => (m.thirdParty ? `thirdparty:${m.thirdParty.id}` : "emailpassword")).join(",");
  return `${u.id}  ${u.email}  ${u.verified ? "verified" : "unverified"}  ${methods}  joined ${new Date(u.timeJoined).toISOString()}`;
}

async function mustFind(app: Parameters<Parameters<typeof withApp>[2]>[0], ref: string): Promise<UserView> {
  const u = await findUser(app.ctx, ref);
  if (!u) throw new CliError(`no user ${ref}`);
  return u;
}

/** `authsvc users list | show | delete | verify`. */
export function usersCommand(io: CliIO): Command {
  const users = new Command("users").description("list, inspect, delete and verify users");
  const sub = (name: string, desc: string) => addAdminSubcommand(users, name, desc);
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
        for (const u of list) io.out(describe(u));
      });
    });
  sub("show", "show one user by email or id").argument("<email-or-id>")
    .action(async (ref, flags) => withApp(flags, io, async (app) => {
      const u = await mustFind(app, ref);
      if (flags.json) return printJson(io, toUserJson(u));
      io.out(`id:        ${u.id}\nemail:     ${u.email}\nverified:  ${u.verified}\njoined:    ${new Date(u.timeJoined).toISOString()}\nlogin methods:`);
      for (const m of u.loginMethods) io.out(`  - ${m.thirdParty ? `thirdparty (${m.thirdParty.id}, user ${m.thirdParty.userId})` : "emailpassword"}  ${m.email}  ${m.verified ? "verified" : "unverified"}`);
    }));
  sub("delete", "delete a user and everything attached to them").argument("<email-or-id>")
    .action(async (ref, flags) => withApp(flags, io, async (app) => {
      const u = await mustFind(app, ref);
      await deleteUser(app.ctx, u.id, "cli");
      if (flags.json) return printJson(io, { deleted: u.id });
      io.out(`deleted user ${u.id} <${u.email}>`);
    }));
  sub("verify", "mark a user's email address verified").argument("<email-or-id>")
    .action(async (ref, flags) => withApp(flags, io, async (app) => {
      const u = await mustFind(app, ref);
      const changed = await verifyUserEmail(app.ctx, u.id, "cli");
      if (flags.json) return printJson(io, { id: u.id, email: u.email, verified: true, changed });
      io.out(changed ? `verified ${u.email}` : `${u.email} was already verified`);
    }));
  addTransferCommands(users, io);
  return users;
}
