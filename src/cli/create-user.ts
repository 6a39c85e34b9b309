import { Command } from "commander";
import { addConfigOptions, addCreateOption } from "./options.js";
import { CliError, type CliIO } from "./io.js";
import { commandRun, runDeclared, userCreations } from "./room-commands.js";

/** `authsvc users create <email>` with the options of the sign-in methods' ways (Room.userCreation). */
export function addUsersCreateCommand(users: Command, io: CliIO): void {
  const cmd = describeCreate(new Command("create").argument("<email>", "the user's email address"));
  users.addCommand(cmd.action(async (email: string, flags) => runCreate(io, email, flags)));
}

/** `authsvc create-user --email E`: the older spelling of `users create`, kept for scripts, with a notice. */
export function createUserCommand(io: CliIO): Command {
  const cmd = describeCreate(new Command("create-user").requiredOption("--email <email>", "the user's email address"));
  cmd.description("deprecated spelling of `users create <email>`");
  return cmd.action(async (flags) => {
    io.err(`authsvc: create-user is deprecated; use: authsvc users create ${String(flags.email)}`);
    return runCreate(io, flags.email, flags);
  });
}

/** The sign-in methods' ways (Room.userCreation) give the help line and their options, in the rooms' order. */
function describeCreate(cmd: Command): Command {
  const ways = userCreations();
  cmd.description(`create a user: ${ways.map((w) => w.summary).join(", or ")}`);
  for (const way of ways) for (const o of way.options) cmd.option(o.flags, o.description);
  cmd.option("--json", "print the created user as JSON");
  addConfigOptions(cmd, "common");
  addCreateOption(cmd);
  return cmd;
}

/** The first way whose `when` holds for the flags creates the user, else the default way. */
async function runCreate(io: CliIO, email: string, flags: Record<string, unknown>): Promise<void> {
  const ways = userCreations();
  const way = ways.find((w) => w.when?.(flags)) ?? ways.find((w) => !w.when);
  if (!way) throw new CliError("no sign-in method creates users here");
  return runDeclared(() => way.create(email, commandRun(io, flags, [email])));
}
