import { Command } from "commander";
import { toUserJson } from "../core/users.js";
import { signUpWithPassword } from "../methods/email-password/accounts.js";
import { createPasswordlessUser } from "../methods/passwordless/consume.js";
import { withApp, printJson } from "./context.js";
import { addConfigOptions, addCreateOption } from "./options.js";
import { CliError, readPasswordFromStdin, type CliIO } from "./io.js";

/** `authsvc users create <email> --password-stdin [--verified]`, through the same core as sign-up. */
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

function describeCreate(cmd: Command): Command {
  cmd.description("create a user: email/password, or --passwordless")
    .option("--password-stdin", "read the password from standard input (recommended)")
    .option("--password <password>", "the password (visible in shell history and the process list; prefer --password-stdin)")
    .option("--verified", "mark the email address as verified")
    .option("--passwordless", "no password: the user signs in with a code or link mailed to the address (verified)")
    .option("--json", "print the created user as JSON");
  addConfigOptions(cmd, "common");
  addCreateOption(cmd);
  return cmd;
}

/** The flags `users create` and `create-user` share (config flags too, read by withApp). */
interface CreateFlags { passwordless?: boolean; passwordStdin?: boolean; password?: string; verified?: boolean; json?: boolean; [flag: string]: unknown }

async function runCreate(io: CliIO, email: string, flags: CreateFlags): Promise<void> {
  if (flags.passwordless) {
    if (flags.passwordStdin || flags.password !== undefined) throw new CliError("--passwordless takes no password", 2);
    return withApp(flags, io, async (app) => {
      const r = await createPasswordlessUser(app.ctx, { email, source: "cli" });
      if (r.status !== "OK") throw new CliError(`could not create user: ${r.message}`);
      if (flags.json) printJson(io, toUserJson(r.user));
      else io.out(`created user ${r.user.id} <${r.user.email}> (passwordless, verified)`);
    });
  }
  if (flags.passwordStdin && flags.password !== undefined) throw new CliError("give either --password-stdin or --password, not both", 2);
  if (!flags.passwordStdin && !flags.password) throw new CliError("a password is required: pipe it in with --password-stdin", 2);
  const password: string = flags.passwordStdin ? await readPasswordFromStdin(io.stdin) : (flags.password as string);
  await withApp(flags, io, async (app) => {
    const r = await signUpWithPassword(app.ctx, { email, password, verified: !!flags.verified, source: "cli" });
    if (r.status !== "OK") {
      const msg = r.status === "FIELD_ERROR" ? r.formFields.map((f) => `${f.id}: ${f.error}`).join("; ")
        : "another user has this address; add --verified to link the password to them, or use reset-password";
      throw new CliError(`could not create user: ${msg}`);
    }
    if (flags.json) printJson(io, toUserJson(r.user));
    else io.out(`created user ${r.user.id} <${r.user.email}>${r.user.verified ? " (verified)" : ""}`);
  });
}
