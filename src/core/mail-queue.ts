import type { Kysely } from "kysely";
import { templateIn } from "../mail/kinds.js";
import { renderMail, type MailKind, type MailVars } from "../mail/templates.js";
import { findLocaleByEmail } from "../store/person-locales.js";
import type { DB } from "../store/schema.js";
import { insertOutboxMessage } from "../store/outbox.js";
import { createId } from "../util/random.js";
import type { CoreContext } from "./context.js";

/**
 * Renders a mail and queues it in the outbox inside the caller's transaction, so the mail exists if
 * and only if the change that caused it committed. The worker sends it after commit; call
 * `notifyOutbox(ctx)` once the transaction has committed. Returns the outbox id.
 * It is written in the recipient's stored locale (person_locales, by their current address), else
 * in `locale` (the request's, for an address with no account yet), else the default locale.
 */
export async function queueMail(tx: Kysely<DB>, ctx: CoreContext, m: { kind: MailKind; to: string; vars: Omit<MailVars, "email" | "websiteUrl">; locale?: string }): Promise<string> {
  const kind = ctx.mail.kind(m.kind);
  const w = ctx.words.of((await findLocaleByEmail(tx, m.to)) ?? m.locale);
  const { template, lang } = templateIn(kind, w);
  const rendered = renderMail(template, { ...m.vars, email: m.to, websiteUrl: ctx.config.websiteUrl }, ctx.mailTemplates?.[m.kind], lang);
  const id = createId();
  // What tail-mail and mail filters see in X-Authsvc-Action; the language the mail is written in.
  const headers: Record<string, string> = { "X-Authsvc-Action": kind.action, "Content-Language": lang };
  if (m.vars.expiresAt !== undefined) headers["X-Authsvc-Expires-At"] = new Date(m.vars.expiresAt).toISOString();
  const now = ctx.clock.now();
  await insertOutboxMessage(tx, {
    id,
    created_at: now,
    kind: m.kind,
    headers: JSON.stringify(headers),
    to_address: m.to,
    subject: rendered.subject,
    text_body: rendered.text,
    html_body: rendered.html,
    status: "pending",
    attempts: 0,
    next_attempt_at: now,
    lease_until: null,
    lease_owner: null,
    last_error: null,
    sent_at: null,
    message_id: `<${id}@${new URL(ctx.config.publicUrl).hostname}>`,
    smtp_response: null,
  });
  return id;
}

/** Tells the outbox worker (if this process runs one) that mail is waiting. Call after commit. */
export function notifyOutbox(ctx: CoreContext): void {
  try { ctx.outboxNotify?.(); } catch (err) { ctx.logger.warn("outbox notify failed", { err }); }
}

/**
 * A website link with a token, as the SuperTokens frontends expect it (FDI notes §7.3, §8.2). With
 * hosted pages on, the pages live at this server's public URL, so the links point there.
 */
/** `page`: a path under the website base path ("reset-password"), or "" for the base path itself. */
export function websiteLink(ctx: CoreContext, page: string, token?: string): string {
  const origin = ctx.config.hostedPages ? ctx.config.publicUrl : ctx.config.websiteUrl;
  const base = `${origin}${ctx.config.websiteBasePath}${page ? `/${page}` : ""}`;
  return token === undefined ? base : `${base}?token=${encodeURIComponent(token)}&tenantId=public`;
}
