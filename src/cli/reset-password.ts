import { canonicalEmail } from "../core/emails.js";
import { Command } from "commander";
import { requestPasswordReset } from "../core/password-reset.js";
import { findUser, setPassword } from "../core/users.js";
import { withApp, printJson } from "./context.js";
import { addConfigOptions } from "./options.js";
import { CliError, readPasswordFromStdin, type CliIO } from "./io.js";

/** `authsvc reset-password --email E (--password-stdin | --send-link)`. */
export function resetPasswordCommand(io: CliIO): Command {
  const cmd = new Command("reset-password")
    .description("set a new password (revokes the user's sessions), or mail the user a reset link")
    .requiredOption("--email <email>", "the user's email address")
    .option("--password-stdin", "read the new password from standard input")
    .option("--send-link", "issue a reset token and queue the reset mail instead")
    .option("--json", "machine-readable output");
  addConfigOptions(cmd, "common");
  return cmd.action(async (flags) => {
    if (!!flags.passwordStdin === !!flags.sendLink) throw new CliError("give exactly one of --password-stdin or --send-link", 2);
    if (flags.sendLink) return sendLink(io, flags);
    const password = await readPasswordFromStdin(io.stdin);
    await withApp(flags, io, async (app) => {
      const u = await findUser(app.ctx, flags.email);
      if (!u) throw new CliError(`no user ${flags.email}`);
      const r = await setPassword(app.ctx, u.id, password, "cli");
      if (r.status === "NO_PASSWORD_LOGIN") throw new CliError(`${u.email} signs in with a third-party provider and has no password`);
      if (r.status === "FIELD_ERROR") throw new CliError(`could not set the password: ${r.formFields[0].error}`);
      if (flags.json) return printJson(io, { id: u.id, email: u.email, revokedSessions: r.revokedSessions });
      io.out(`password changed for ${u.email}; ${r.revokedSessions} session(s) revoked`);
    });
  });
}

/**
 * --send-link: the same core function as POST /user/password/reset/token, then one delivery
 * attempt; what it could not deliver stays queued for the running server's outbox worker.
 */
async function sendLink(io: CliIO, flags: Record<string, unknown>): Promise<void> {
  await withApp(flags, io, async (app) => {
    const r = await requestPasswordReset(app.ctx, String(flags.email), { source: "cli" });
    if (r.status === "FIELD_ERROR") throw new CliError(`not a valid address: ${JSON.stringify(flags.email)}`, 2);
    if (r.outcome === "no_account") throw new CliError(`no email/password account for ${flags.email}; nothing sent`);
    const delivery = await app.mail.flush();
    const queued = delivery.sent > 0 ? `sent via ${delivery.via ?? "the configured relay"}` : "queued (the server's outbox worker will deliver it)";
    if (flags.json) return printJson(io, { email: canonicalEmail(String(flags.email)), outcome: r.outcome, expiresAt: r.expiresAt ?? null, delivered: delivery.sent > 0 });
    if (r.outcome === "third_party_notice") return io.out(`${flags.email} signs in with a third-party provider: no reset link; a mail saying so was ${queued}`);
    io.out(`reset link for ${flags.email} (valid until ${new Date(r.expiresAt!).toISOString()}) ${queued}`);
  });
}
