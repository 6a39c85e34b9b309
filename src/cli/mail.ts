import { Command } from "commander";
import { canonicalEmail, isValidEmail } from "../core/emails.js";
import { AuthError } from "../core/errors.js";
import { retryMailNow } from "../core/mail-retry.js";
import { maskUrl } from "../config.js";
import { createCatcherTransport, createSmtpTransport, SmtpError, type MailTransport } from "../mail/transport.js";
import { createId } from "../util/random.js";
import { smtpOptionsOf } from "../rooms.js";
import { withApp } from "./context.js";
import { addRoomCommands } from "./room-commands.js";
import { addAdminSubcommand, addConfigOptions, configFromFlags } from "./options.js";
import { CliError, type CliIO } from "./io.js";

/** `authsvc mail test --to ADDR`: one test mail through the relay, its answer printed; `mail retry ID`: a failing message now. */
export function mailCommand(io: CliIO): Command {
  const mail = new Command("mail").description("mail delivery tools");
  const test = new Command("test")
    .description("send a test mail and print the relay's exact answer (exit 1 when it refuses)")
    .requiredOption("--to <address>", "recipient");
  addConfigOptions(test, "all");
  mail.addCommand(test.action(async (flags) => {
    const { config } = configFromFlags(flags, io);
    const to = canonicalEmail(flags.to);
    if (!isValidEmail(to)) throw new CliError(`not a valid address: ${JSON.stringify(flags.to)}`, 2);
    let transport: MailTransport;
    try {
      transport = config.smtpUrl
        ? createSmtpTransport(config.smtpUrl, { production: config.mode === "production", options: smtpOptionsOf(config) })
        : createCatcherTransport(config.mailCatcherHost, config.mailCatcherPort, smtpOptionsOf(config));
    } catch (err) {
      throw new CliError(`cannot use the SMTP relay: ${(err as Error).message}`, 2);
    }
    io.err(`sending a test mail to ${to} via ${config.smtpUrl ? transport.description : `${transport.description} (no --smtp-url set)`}`);
    try {
      const response = await transport.send({
        from: config.mailFrom,
        to,
        subject: "authsvc test mail",
        text: `This is a test mail from authsvc (${config.publicUrl}).\nIf you can read it, mail delivery works.\n`,
        messageId: `<test-${createId()}@${new URL(config.publicUrl).hostname}>`,
        headers: { "X-Authsvc-Action": "test" },
      });
      io.out(response);
    } catch (err) {
      const raw = err instanceof SmtpError ? err.message : String(err);
      // Never echo the URL with its password: mask it if a library put it in the message.
      const why = config.smtpUrl ? raw.split(config.smtpUrl).join(maskUrl(config.smtpUrl)) : raw;
      const where = config.smtpUrl ? new URL(config.smtpUrl).host : `${config.mailCatcherHost}:${config.mailCatcherPort}`;
      if (err instanceof SmtpError && !err.reachedRelay) {
        const what = config.smtpUrl
          ? "check the host and port in --smtp-url (AUTHSVC_SMTP_URL), that the relay is running and that this machine may reach it"
          : "no --smtp-url is set, so this tries the built-in catcher: start `authsvc serve` (development) or set --smtp-url (AUTHSVC_SMTP_URL)";
        throw new CliError(`could not connect to ${config.smtpUrl ? "the SMTP relay" : "the built-in mail catcher"} at ${where}: ${why}; ${what}`);
      }
      throw new CliError(`the relay at ${where} refused the test mail: ${why}`);
    } finally {
      transport.close();
    }
  }));
  addAdminSubcommand(mail, "retry", "send a failing message now instead of at its next attempt (a running serve sends it)")
    .argument("<id>", "the message's id (the dashboard's outbox lists them)")
    .action(async (id: string, flags) => withApp(flags, io, async (app) => {
      try { await retryMailNow(app.ctx, id, "cli"); } catch (err) {
        if (err instanceof AuthError) throw new CliError(err.message);
        throw err;
      }
      io.out(`message ${id} is due now`);
    }));
  addRoomCommands(mail, io);
  return mail;
}
