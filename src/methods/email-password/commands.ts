import { CommandError, type CommandRun, type CommandSpec, type UserCreationSpec } from "../../core/commands.js";
import { canonicalEmail } from "../../core/emails.js";
import { websiteLink } from "../../core/mail-queue.js";
import { toUserJson } from "../../core/users.js";
import { setPassword, signUpWithPassword } from "./accounts.js";
import { noPasswordWords } from "./no-password.js";
import { requestPasswordReset } from "./password-reset.js";

/** `authsvc reset-password <email-or-id> (--password-stdin | --send-link)`. */
export const resetPasswordCommand: CommandSpec = {
  name: "reset-password",
  description: "set a new password (revokes the user's sessions), or mail the user a reset link",
  after: "create-user",
  layout: "own",
  user: { deprecated: ["email", "user"] },
  options: [
    { flags: "--password-stdin", description: "read the new password from standard input" },
    { flags: "--send-link", description: "issue a reset token and queue the reset mail instead (development: also prints the link)" },
    { flags: "--json", description: "machine-readable output" },
  ],
  async action(run) {
    const who = run.user!;
    if (!!run.flags.passwordStdin === !!run.flags.sendLink) throw new CommandError("give exactly one of --password-stdin or --send-link", 2);
    if (run.flags.sendLink) return sendLink(run, who);
    const password = await run.readPassword();
    await run.withApp(async (app) => {
      const u = await app.findUser(who);
      const r = await setPassword(app.ctx, u.id, password, "cli");
      if (r.status === "NO_PASSWORD_LOGIN") throw new CommandError(`${u.email} ${noPasswordWords(app.ctx, u, u.id)}`);
      if (r.status === "FIELD_ERROR") throw new CommandError(`could not set the password: ${r.formFields[0].error}`);
      if (run.flags.json) return run.json({ id: u.id, email: u.email, revokedSessions: r.revokedSessions });
      run.out(`password changed for ${u.email}; ${r.revokedSessions} session(s) revoked`);
    });
  },
};

/**
 * --send-link: the same core function as POST /user/password/reset/token, then one delivery
 * attempt; what it could not deliver stays queued for the running server's outbox worker. A reset
 * goes to the address's email/password account, so an address shared with a user of another
 * sign-in method is not ambiguous here. In development mode the link is printed too (as the API
 * shows the token there), so no mail setup is needed to try it; never in production, where only
 * the mailbox owner may see it.
 */
async function sendLink(run: CommandRun, who: string): Promise<void> {
  await run.withApp(async (app) => {
    // An address goes to its email/password account as the API's reset does; an id to that user's address.
    const email = who.includes("@") ? who : (await app.findUser(who)).email;
    const r = await requestPasswordReset(app.ctx, email, { source: "cli" });
    if (r.status === "FIELD_ERROR") throw new CommandError(`not a valid address: ${JSON.stringify(email)}`, 2);
    if (r.outcome === "no_account") throw new CommandError(`no email/password account for ${email}; nothing sent`);
    const delivery = await app.flushMail();
    const queued = delivery.sent > 0 ? `sent via ${delivery.via ?? "the configured relay"}` : "queued (the server's outbox worker will deliver it)";
    const link = app.config.mode === "development" && r.token ? websiteLink(app.ctx, "reset-password", r.token) : undefined;
    if (run.flags.json) return run.json({ email: canonicalEmail(email), outcome: r.outcome, expiresAt: r.expiresAt ?? null, delivered: delivery.sent > 0, ...(link ? { link } : {}) });
    const noticeBy = app.ctx.logins.find((k) => k.recipeId === r.noticeBy);
    if (noticeBy) return run.out(`${email} signs in with ${noticeBy.names.signsInWith}: no reset link; a mail saying so was ${queued}`);
    run.out(`reset link for ${email} (valid until ${new Date(r.expiresAt!).toISOString()}) ${queued}`);
    if (link) run.out(`link (development mode only): ${link}`);
  });
}

/** `authsvc users create <email> --password-stdin [--verified]` (the default way), through the same core as sign-up. */
export const passwordUserCreation: UserCreationSpec = {
  summary: "email/password",
  options: [
    { flags: "--password-stdin", description: "read the password from standard input (recommended)" },
    { flags: "--password <password>", description: "the password (visible in shell history and the process list; prefer --password-stdin)" },
    { flags: "--verified", description: "mark the email address as verified" },
  ],
  async create(email, run) {
    const { passwordStdin, password: given } = run.flags;
    if (passwordStdin && given !== undefined) throw new CommandError("give either --password-stdin or --password, not both", 2);
    if (!passwordStdin && !given) throw new CommandError("a password is required: pipe it in with --password-stdin", 2);
    const password = passwordStdin ? await run.readPassword() : String(given);
    await run.withApp(async (app) => {
      const r = await signUpWithPassword(app.ctx, { email, password, verified: !!run.flags.verified, source: "cli" });
      if (r.status !== "OK") {
        const msg = r.status === "FIELD_ERROR" ? r.formFields.map((f) => `${f.id}: ${f.error}`).join("; ")
          : "another user has this address; add --verified to link the password to them, or use reset-password";
        throw new CommandError(`could not create user: ${msg}`);
      }
      if (run.flags.json) run.json(toUserJson(r.user));
      else run.out(`created user ${r.user.id} <${r.user.email}>${r.user.verified ? " (verified)" : ""}`);
    });
  },
};
