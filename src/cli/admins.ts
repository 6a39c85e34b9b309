import { Command } from "commander";
import { AuthError } from "../core/errors.js";
import { createAdmin, listAdmins, removeAdmin, resetAdminPassword, resetAdminSecondFactor, type NewSecondFactor } from "../dashboard/accounts/admins.js";
import { withApp, printJson } from "./context.js";
import { askYes, CliError, readPasswordFromStdin, type CliIO } from "./io.js";
import { addAdminSubcommand } from "./options.js";
import { askNewPassword } from "./password-prompt.js";

/**
 * `authsvc admins create | list | reset-password | reset-2fa | remove`: the admin dashboard's
 * accounts (docs/admin-dashboard.md). Only here, never on a web page: whoever can run this on the
 * server already holds the database. Secrets (the second factor) are printed once, to stdout.
 */
export function adminsCommand(io: CliIO): Command {
  const admins = new Command("admins").description("the admin dashboard's accounts (/admin): create, list, reset, remove");
  const sub = (name: string, desc: string) => addAdminSubcommand(admins, name, desc);
  sub("create", "create an admin: asks for a password (or --password-stdin), prints the second-factor secret and QR code once").argument("<email>")
    .option("--password-stdin", "read the password from standard input")
    .action(async (email, flags) => {
      const password = flags.passwordStdin ? await readPasswordFromStdin(io.stdin) : await askNewPassword(io, `Password for admin ${email}`);
      await withApp(flags, io, async (app) => {
        const r = await run(() => createAdmin(app.ctx, { email, password, source: "cli" }));
        if (flags.json) return printJson(io, { id: r.id, email: r.email, totpSecret: r.secret, otpauthUri: r.uri });
        io.out(`created admin ${r.id} <${r.email}>`);
        await printSecondFactor(io, r);
        io.out(`Sign in at ${app.config.publicUrl}/admin/sign-in with this address, the password and a code from the app.`);
      });
    });
  sub("list", "list the admins (address, second factor, live dashboard sessions); no secrets")
    .action(async (flags) => withApp(flags, io, async (app) => {
      const list = await listAdmins(app.ctx);
      if (flags.json) return printJson(io, list);
      if (list.length === 0) return io.out("no admins yet: `authsvc admins create you@example.com` makes the first");
      for (const a of list) io.out(`${a.id}  ${a.email}  ${a.hasSecondFactor ? "2fa" : "NO 2FA (cannot sign in)"}  ${a.liveSessions} session(s)  created ${new Date(a.createdAt).toISOString()}`);
    }));
  sub("reset-password", "set a new password (asks, or --password-stdin); ends the admin's dashboard sessions").argument("<email>")
    .option("--password-stdin", "read the password from standard input")
    .action(async (email, flags) => {
      const password = flags.passwordStdin ? await readPasswordFromStdin(io.stdin) : await askNewPassword(io, `New password for admin ${email}`);
      await withApp(flags, io, async (app) => {
        const r = await run(() => resetAdminPassword(app.ctx, { email, password, source: "cli" }));
        if (flags.json) return printJson(io, r);
        io.out(`password changed for admin ${email}; ${r.sessionsRevoked} session(s) ended`);
      });
    });
  sub("reset-2fa", "give the admin a new second factor (printed once; the old one stops working) and end their sessions").argument("<email>")
    .option("--remove", "remove the second factor instead: the admin cannot sign in until the next reset-2fa")
    .action(async (email, flags) => withApp(flags, io, async (app) => {
      const r = await run(() => resetAdminSecondFactor(app.ctx, { email, remove: !!flags.remove, source: "cli" }));
      if (flags.json) return printJson(io, { id: r.id, sessionsRevoked: r.sessionsRevoked, ...(r.secondFactor ? { totpSecret: r.secondFactor.secret, otpauthUri: r.secondFactor.uri } : {}) });
      io.out(`${r.secondFactor ? "new second factor" : "second factor removed"} for admin ${email}; ${r.sessionsRevoked} session(s) ended`);
      if (r.secondFactor) await printSecondFactor(io, r.secondFactor);
    }));
  sub("remove", "remove an admin and end their sessions (asks first on a terminal; --yes otherwise)").argument("<email>")
    .option("-y, --yes", "do not ask (needed when not run on a terminal)")
    .action(async (email, flags) => {
      if (!flags.yes && !io.isTerminal) throw new CliError("admins remove removes for good; give --yes to confirm (no terminal to ask on)", 2);
      await withApp(flags, io, async (app) => {
        if (!flags.yes && !(await askYes(io, `remove admin ${email} and end their sessions? type "yes" to confirm: `))) throw new CliError("not removed");
        const r = await run(() => removeAdmin(app.ctx, { email, source: "cli" }));
        if (flags.json) return printJson(io, { removed: r.id });
        io.out(`removed admin ${r.id} <${email}>`);
      });
    });
  return admins;
}

/** The secret, its URI and a QR code for the terminal: shown this once, stored sealed. */
async function printSecondFactor(io: CliIO, f: NewSecondFactor): Promise<void> {
  io.out("Add this second factor to an authenticator app now (it is not shown again):");
  const { default: QRCode } = await import("qrcode");
  io.out(await QRCode.toString(f.uri, { type: "terminal", small: true }));
  io.out(`secret: ${f.secret}`);
  io.out(`uri:    ${f.uri}`);
}

/** The core's refusals (bad address, weak password, unknown or duplicate admin) as CLI errors. */
async function run<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof AuthError) throw new CliError(err.message, err.code === "BAD_INPUT" ? 2 : 1);
    throw err;
  }
}
