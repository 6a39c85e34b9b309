import { CommandError, type CommandRun, type CommandSpec } from "../../core/commands.js";
import { AuthError } from "../../core/errors.js";
import { createAdmin, listAdmins, removeAdmin, resetAdminPassword, resetAdminSecondFactor, type NewSecondFactor } from "./admins.js";

const email = [{ name: "<email>" }];
const passwordStdin = { flags: "--password-stdin", description: "read the password from standard input" };

/** The password piped in with --password-stdin, else asked for twice on the terminal. */
const newPassword = (run: CommandRun, prompt: string) => (run.flags.passwordStdin ? run.readPassword() : run.askNewPassword(prompt));

/**
 * `authsvc admins create | list | reset-password | reset-2fa | remove`: the admin dashboard's
 * accounts (docs/admin-dashboard.md). Only here, never on a web page: whoever can run this on the
 * server already holds the database. Secrets (the second factor) are printed once, to stdout.
 */
export const adminsCommands: CommandSpec = {
  name: "admins",
  description: "the admin dashboard's accounts (/admin): create, list, reset, remove",
  after: "admin-key",
  commands: [
    {
      name: "create",
      description: "create an admin: asks for a password (or --password-stdin), prints the second-factor secret and QR code once",
      arguments: email,
      options: [passwordStdin],
      async action(run) {
        const [address] = run.args;
        const password = await newPassword(run, `Password for admin ${address}`);
        await run.withApp(async (app) => {
          const r = await refusals(() => createAdmin(app.ctx, { email: address, password, source: "cli" }));
          if (run.flags.json) return run.json({ id: r.id, email: r.email, totpSecret: r.secret, otpauthUri: r.uri });
          run.out(`created admin ${r.id} <${r.email}>`);
          await printSecondFactor(run, r);
          run.out(`Sign in at ${app.config.publicUrl}/admin/sign-in with this address, the password and a code from the app.`);
        });
      },
    },
    {
      name: "list",
      description: "list the admins (address, second factor, live dashboard sessions); no secrets",
      action: (run) => run.withApp(async (app) => {
        const list = await listAdmins(app.ctx);
        if (run.flags.json) return run.json(list);
        if (list.length === 0) return run.out("no admins yet: `authsvc admins create you@example.com` makes the first");
        for (const a of list) run.out(`${a.id}  ${a.email}  ${a.hasSecondFactor ? "2fa" : "NO 2FA (cannot sign in)"}  ${a.liveSessions} session(s)  created ${new Date(a.createdAt).toISOString()}`);
      }),
    },
    {
      name: "reset-password",
      description: "set a new password (asks, or --password-stdin); ends the admin's dashboard sessions",
      arguments: email,
      options: [passwordStdin],
      async action(run) {
        const [address] = run.args;
        const password = await newPassword(run, `New password for admin ${address}`);
        await run.withApp(async (app) => {
          const r = await refusals(() => resetAdminPassword(app.ctx, { email: address, password, source: "cli" }));
          if (run.flags.json) return run.json(r);
          run.out(`password changed for admin ${address}; ${r.sessionsRevoked} session(s) ended`);
        });
      },
    },
    {
      name: "reset-2fa",
      description: "give the admin a new second factor (printed once; the old one stops working) and end their sessions",
      arguments: email,
      options: [{ flags: "--remove", description: "remove the second factor instead: the admin cannot sign in until the next reset-2fa" }],
      action: (run) => run.withApp(async (app) => {
        const [address] = run.args;
        const r = await refusals(() => resetAdminSecondFactor(app.ctx, { email: address, remove: !!run.flags.remove, source: "cli" }));
        if (run.flags.json) return run.json({ id: r.id, sessionsRevoked: r.sessionsRevoked, ...(r.secondFactor ? { totpSecret: r.secondFactor.secret, otpauthUri: r.secondFactor.uri } : {}) });
        run.out(`${r.secondFactor ? "new second factor" : "second factor removed"} for admin ${address}; ${r.sessionsRevoked} session(s) ended`);
        if (r.secondFactor) await printSecondFactor(run, r.secondFactor);
      }),
    },
    {
      name: "remove",
      description: "remove an admin and end their sessions (asks first on a terminal; --yes otherwise)",
      arguments: email,
      options: [{ flags: "-y, --yes", description: "do not ask (needed when not run on a terminal)" }],
      async action(run) {
        const [address] = run.args;
        if (!run.flags.yes && !run.canAsk) throw new CommandError("admins remove removes for good; give --yes to confirm (no terminal to ask on)", 2);
        await run.withApp(async (app) => {
          if (!run.flags.yes && !(await run.askYes(`remove admin ${address} and end their sessions? type "yes" to confirm: `))) throw new CommandError("not removed");
          const r = await refusals(() => removeAdmin(app.ctx, { email: address, source: "cli" }));
          if (run.flags.json) return run.json({ removed: r.id });
          run.out(`removed admin ${r.id} <${address}>`);
        });
      },
    },
  ],
};

/** The secret, its URI and a QR code for the terminal: shown this once, stored sealed. */
async function printSecondFactor(run: CommandRun, f: NewSecondFactor): Promise<void> {
  run.out("Add this second factor to an authenticator app now (it is not shown again):");
  const { default: QRCode } = await import("qrcode");
  run.out(await QRCode.toString(f.uri, { type: "terminal", small: true }));
  run.out(`secret: ${f.secret}`);
  run.out(`uri:    ${f.uri}`);
}

/** The core's refusals (bad address, weak password, unknown or duplicate admin) as the command's failures. */
async function refusals<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof AuthError) throw new CommandError(err.message, err.code === "BAD_INPUT" ? 2 : 1);
    throw err;
  }
}
