/**
 * Mail templates: pure functions from values to {subject, text, html}. Operators may override any
 * part from files (see template-files.ts); overrides use the same {{placeholders}} as the defaults.
 * Values are HTML-escaped in the HTML part, and control characters are removed from the subject, so
 * no value can inject markup or a header.
 */
import { describeDuration, describeInstant } from "../words/durations.js";
import type { MailKind, MailTemplate } from "./kinds.js";

export type { MailKind } from "./kinds.js";

export interface MailVars {
  /** The recipient's canonical address. */
  email: string;
  /** The action link (verify, reset, or the sign-in / reset page for notices). */
  link: string;
  /** Expiry of the token in the link (epoch ms), when there is one. */
  expiresAt?: number;
  /** Lifetime of that token in ms (shown as "1 hour"). */
  validForMs?: number;
  /** A provider's display name (the notice that an account has no password). */
  provider?: string;
  /** A one-time code the mail carries. */
  code?: string;
  /** The login method added (login_added), those that remain (account_secured), or the organization and role (organization_invitation). */
  details?: string;
  websiteUrl: string;
}

export interface RenderedMail { subject: string; text: string; html: string }
export interface TemplateOverride { subject?: string; text?: string; html?: string }
export type TemplateOverrides = Partial<Record<MailKind, TemplateOverride>>;

/** Placeholders a template may use. */
export const placeholders = ["email", "link", "expiresAt", "validFor", "provider", "code", "details", "websiteUrl"] as const;

/** Renders one mail; parts missing from `override` come from the built-in template (its kind's, MailTable.kind). */
export function renderMail(template: MailTemplate, vars: MailVars, override: TemplateOverride = {}, locale = "en"): RenderedMail {
  const t = { ...template, ...override };
  const values = valuesOf(vars, locale);
  return {
    // eslint-disable-next-line no-control-regex
    subject: fill(t.subject, values, (v) => v).replace(/[\x00-\x1f\x7f]+/g, " ").trim(),
    text: fill(t.text, values, (v) => v),
    html: fill(t.html, values, escapeHtml),
  };
}

/** The placeholders used in a template that are not known (for load-time validation). */
export function unknownPlaceholders(template: string): string[] {
  const known = new Set<string>(placeholders);
  return [...template.matchAll(/\{\{\s*([^}\s]*)\s*\}\}/g)].map((m) => m[1]).filter((n) => !known.has(n));
}

/** Escapes text for HTML element content and double-quoted attributes. */
export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);
}

/** "1 hour", "1 day", "90 minutes": how long a token lives, for the mail text (the pages say it too). */
export { describeDurationInWords as describeValidity } from "../util/duration.js";

function valuesOf(v: MailVars, locale: string): Record<string, string> {
  return {
    email: v.email,
    link: v.link,
    expiresAt: v.expiresAt === undefined ? "" : describeInstant(v.expiresAt, locale),
    validFor: v.validForMs === undefined ? "" : describeDuration(v.validForMs, locale),
    provider: v.provider ?? "",
    code: v.code ?? "",
    details: v.details ?? "",
    websiteUrl: v.websiteUrl,
  };
}

function fill(template: string, values: Record<string, string>, encode: (v: string) => string): string {
  return template.replace(/\{\{\s*([A-Za-z]+)\s*\}\}/g, (_, name: string) => (name in values ? encode(values[name]) : ""));
}
