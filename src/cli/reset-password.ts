import { canonicalEmail } from "../core/emails.js";
import { Command } from "commander";
import { websiteLink } from "../core/mail-queue.js";
import { requestPasswordReset } from "../methods/email-password/password-reset.js";
import { setPassword } from "../methods/email-password/accounts.js";
import { withApp, printJson } from "./context.js";
import { addConfigOptions, addCreateOption } from "./options.js";
import { CliError, readPasswordFromStdin, type CliIO } from "./io.js";
import { resolveUserRef } from "./user-ref.js";
import { addUserArgument, pickUserRef } from "./user-arg.js";

/** `authsvc reset-password <email-or-id> (--password-stdin | --send-link)`. */
export function resetPasswordCommand(io: CliIO): Command {
  const cmd = new Command("reset-password")
    .description("set a new password (revokes the user's sessions), or mail the user a reset link");
  addUserArgument(cmd, ["email", "user"])
    .option("--password-stdin", "read the new password from standard input")
    .option("--send-link", "issue a reset token and queue the reset mail instead (development: also prints the link)")
    .option("--json", "machine-readable output");
  addConfigOptions(cmd, "common");
  addCreateOption(cmd);
  return cmd.action(async (ref, flags) => {
    const who = pickUserRef(io, cmd, ref, flags)!;
    if (!!flags.passwordStdin === !!flags.sendLink) throw new CliError("give exactly one of --password-stdin or --send-link", 2);
    if (flags.sendLink) return sendLink(io, who, flags);
    const password = await readPasswordFromStdin(io.stdin);
    await withApp(flags, io, async (app) => {
      const u = await resolveUserRef(app, who);
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
 * attempt; what it could not deliver stays queued for the running server's outbox worker. A reset
 * goes to the address's email/password account, so an address shared with a third-party user is
 * not ambiguous here. In development mode the link is printed too (as the API shows the token
 * there), so no mail setup is needed to try it; never in production, where only the mailbox owner
 * may see it.
 */
async function sendLink(io: CliIO, who: string, flags: Record<string, unknown>): Promise<void> {
  await withApp(flags, io, async (app) => {
    // An address goes to its email/password account as the API's reset does; an id to that user's address.
    const email = who.includes("@") ? who : (await resolveUserRef(app, who)).email;
    const r = await requestPasswordReset(app.ctx, email, { source: "cli" });
    if (r.status === "FIELD_ERROR") throw new CliError(`not a valid address: ${JSON.stringify(email)}`, 2);
    if (r.outcome === "no_account") throw new CliError(`no email/password account for ${email}; nothing sent`);
    const delivery = await app.mail.flush();
    const queued = delivery.sent > 0 ? `sent via ${delivery.via ?? "the configured relay"}` : "queued (the server's outbox worker will deliver it)";
    const link = app.config.mode === "development" && r.token ? websiteLink(app.ctx, "reset-password", r.token) : undefined;
    if (flags.json) return printJson(io, { email: canonicalEmail(email), outcome: r.outcome, expiresAt: r.expiresAt ?? null, delivered: delivery.sent > 0, ...(link ? { link } : {}) });
    if (r.outcome === "third_party_notice") return io.out(`${email} signs in with a third-party provider: no reset link; a mail saying so was ${queued}`);
    io.out(`reset link for ${email} (valid until ${new Date(r.expiresAt!).toISOString()}) ${queued}`);
    if (link) io.out(`link (development mode only): ${link}`);
  });
}
