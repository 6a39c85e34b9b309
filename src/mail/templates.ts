/**
 * Mail templates: pure functions from values to {subject, text, html}. Operators may override any
 * part from files (see template-files.ts); overrides use the same {{placeholders}} as the defaults.
 * Values are HTML-escaped in the HTML part, and control characters are removed from the subject, so
 * no value can inject markup or a header.
 */
import { describeDurationInWords } from "../util/duration.js";
import { renderMailLayout } from "./html-layout.js";
import { accountTemplates, type AccountMailKind } from "./account-templates.js";
import { passwordlessTemplates, type PasswordlessMailKind } from "./passwordless-templates.js";
import { organizationTemplates, type OrganizationMailKind } from "./organization-templates.js";

export type MailKind = "email_verification" | "password_reset" | "third_party_account" | "password_changed" | PasswordlessMailKind | "mfa_recovery_code_used" | "mfa_reset" | "webauthn_recovery"
  | "email_change" | "email_changed" | "account_deletion" | AccountMailKind | OrganizationMailKind;
export const mailKinds: readonly MailKind[] = [
  "email_verification", "password_reset", "third_party_account", "password_changed", "passwordless_code", "passwordless_link", "passwordless_code_link",
  "mfa_recovery_code_used", "mfa_reset", "webauthn_recovery", "email_change", "email_changed", "account_deletion", "login_added", "account_secured",
  "organization_invitation",
];

export interface MailVars {
  /** The recipient's canonical address. */
  email: string;
  /** The action link (verify, reset, or the sign-in / reset page for notices). */
  link: string;
  /** Expiry of the token in the link (epoch ms), when there is one. */
  expiresAt?: number;
  /** Lifetime of that token in ms (shown as "1 hour"). */
  validForMs?: number;
  /** Provider display name (third_party_account). */
  provider?: string;
  /** The one-time code (passwordless_code, passwordless_code_link). */
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

const defaults: Record<MailKind, Required<TemplateOverride>> = {
  email_verification: {
    subject: "Verify your email address",
    text: "Hello,\n\nplease confirm that {{email}} is your email address by opening this link:\n\n{{link}}\n\nThe link is valid for {{validFor}} (until {{expiresAt}}) and works once.\nIf you did not ask for this, you can ignore this mail.\n",
    html: renderMailLayout({
      title: "Verify your email address",
      intro: ["Hello,", "please confirm that <strong>{{email}}</strong> is your email address."],
      button: "Verify my email address",
      outro: ["The link is valid for {{validFor}} (until {{expiresAt}}) and works once. If you did not ask for this, you can ignore this mail."],
    }),
  },
  password_reset: {
    subject: "Reset your password",
    text: "Hello,\n\nsomeone (hopefully you) asked to reset the password of the account {{email}}. Choose a new password here:\n\n{{link}}\n\nThe link is valid for {{validFor}} (until {{expiresAt}}) and works once.\nIf you did not ask for this, ignore this mail: your password stays as it is.\n",
    html: renderMailLayout({
      title: "Reset your password",
      intro: ["Hello,", "someone (hopefully you) asked to reset the password of the account <strong>{{email}}</strong>."],
      button: "Choose a new password",
      outro: ["The link is valid for {{validFor}} (until {{expiresAt}}) and works once. If you did not ask for this, ignore this mail: your password stays as it is."],
    }),
  },
  third_party_account: {
    subject: "How you sign in",
    text: "Hello,\n\nsomeone (hopefully you) asked to reset the password of the account {{email}}. This account has no password: it signs in with {{provider}}. Use the \"Continue with {{provider}}\" button here:\n\n{{link}}\n\nIf you did not ask for this, you can ignore this mail.\n",
    html: renderMailLayout({
      title: "How you sign in",
      intro: ["Hello,", "someone (hopefully you) asked to reset the password of the account <strong>{{email}}</strong>. This account has no password: it signs in with <strong>{{provider}}</strong>. Use the “Continue with {{provider}}” button on the sign-in page."],
      button: "Sign in with {{provider}}",
      outro: ["If you did not ask for this, you can ignore this mail."],
    }),
  },
  password_changed: {
    subject: "Your password was changed",
    text: "Hello,\n\nthe password of the account {{email}} was just changed, and every device signed in to it was signed out.\n\nIf this was not you, reset your password at once:\n\n{{link}}\n",
    html: renderMailLayout({
      title: "Your password was changed",
      intro: ["Hello,", "the password of the account <strong>{{email}}</strong> was just changed, and every device signed in to it was signed out.", "If this was not you, reset your password at once."],
      button: "Reset my password",
      outro: ["If it was you, there is nothing to do."],
    }),
  },
  ...passwordlessTemplates,
  ...accountTemplates,
  ...organizationTemplates,
  mfa_recovery_code_used: {
    subject: "A recovery code was used to sign in",
    text: "Hello,\n\na recovery code was just used in place of an authenticator code to sign in to the account {{email}}. Each code works once.\n\nIf this was not you, your password and a recovery code are known to someone else: change your password and make new recovery codes at once:\n\n{{link}}\n",
    html: renderMailLayout({
      title: "A recovery code was used to sign in",
      intro: ["Hello,", "a recovery code was just used in place of an authenticator code to sign in to the account <strong>{{email}}</strong>. Each code works once.", "If this was not you, your password and a recovery code are known to someone else: change your password and make new recovery codes at once."],
      button: "Manage my second factor",
      outro: ["If it was you, consider making a new set of recovery codes."],
    }),
  },
  mfa_reset: {
    subject: "Your second factor was removed",
    text: "Hello,\n\nan administrator removed the second factor (authenticator app and recovery codes) of the account {{email}}. You now sign in with your password alone until you set a second factor up again:\n\n{{link}}\n\nIf you did not ask for this, contact the administrator at once.\n",
    html: renderMailLayout({
      title: "Your second factor was removed",
      intro: ["Hello,", "an administrator removed the second factor (authenticator app and recovery codes) of the account <strong>{{email}}</strong>. You now sign in with your password alone until you set a second factor up again."],
      button: "Set up a second factor",
      outro: ["If you did not ask for this, contact the administrator at once."],
    }),
  },
  webauthn_recovery: {
    subject: "Create a new passkey",
    text: "Hello,\n\nsomeone (hopefully you) asked to recover the account {{email}}, which signs in with a passkey. Create a new passkey here:\n\n{{link}}\n\nThe link is valid for {{validFor}} (until {{expiresAt}}) and works once. Your other passkeys keep working.\nIf you did not ask for this, ignore this mail.\n",
    html: renderMailLayout({
      title: "Create a new passkey",
      intro: ["Hello,", "someone (hopefully you) asked to recover the account <strong>{{email}}</strong>, which signs in with a passkey."],
      button: "Create a new passkey",
      outro: ["The link is valid for {{validFor}} (until {{expiresAt}}) and works once. Your other passkeys keep working. If you did not ask for this, ignore this mail."],
    }),
  },
  // Self-service account (src/account/): a new address confirmed, the old one told, a deletion's grace.
  email_change: {
    subject: "Confirm your new email address",
    text: "Hello,\n\nsomeone (hopefully you) asked to use {{email}} as the address of their account. Confirm it by opening this link:\n\n{{link}}\n\nThe link is valid for {{validFor}} (until {{expiresAt}}) and works once.\nIf you did not ask for this, ignore this mail: nothing changes.\n",
    html: renderMailLayout({
      title: "Confirm your new email address",
      intro: ["Hello,", "someone (hopefully you) asked to use <strong>{{email}}</strong> as the address of their account."],
      button: "Confirm my new address",
      outro: ["The link is valid for {{validFor}} (until {{expiresAt}}) and works once. If you did not ask for this, ignore this mail: nothing changes."],
    }),
  },
  email_changed: {
    subject: "Your email address was changed",
    text: "Hello,\n\nthe account that used {{email}} now signs in with another address; this address no longer reaches it.\n\nIf this was not you, contact support at once and reset your password:\n\n{{link}}\n",
    html: renderMailLayout({
      title: "Your email address was changed",
      intro: ["Hello,", "the account that used <strong>{{email}}</strong> now signs in with another address; this address no longer reaches it.", "If this was not you, contact support at once and reset your password."],
      button: "Reset my password",
      outro: ["If it was you, there is nothing to do."],
    }),
  },
  account_deletion: {
    subject: "Your account will be deleted",
    text: "Hello,\n\nthe account {{email}} was signed out everywhere and will be deleted for good at {{expiresAt}}.\n\nTo keep it, open this link before then:\n\n{{link}}\n",
    html: renderMailLayout({
      title: "Your account will be deleted",
      intro: ["Hello,", "the account <strong>{{email}}</strong> was signed out everywhere and will be deleted for good at {{expiresAt}}."],
      button: "Keep my account",
      outro: ["If you meant to delete it, there is nothing to do."],
    }),
  },
};

/** Renders one mail; parts missing from `override` come from the built-in templates. */
export function renderMail(kind: MailKind, vars: MailVars, override: TemplateOverride = {}): RenderedMail {
  const t = { ...defaults[kind], ...override };
  const values = valuesOf(vars);
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

function valuesOf(v: MailVars): Record<string, string> {
  return {
    email: v.email,
    link: v.link,
    expiresAt: v.expiresAt === undefined ? "" : new Date(v.expiresAt).toISOString().replace(/\.\d{3}Z$/, "Z").replace("T", " ").replace("Z", " UTC"),
    validFor: v.validForMs === undefined ? "" : describeDurationInWords(v.validForMs),
    provider: v.provider ?? "",
    code: v.code ?? "",
    details: v.details ?? "",
    websiteUrl: v.websiteUrl,
  };
}

function fill(template: string, values: Record<string, string>, encode: (v: string) => string): string {
  return template.replace(/\{\{\s*([A-Za-z]+)\s*\}\}/g, (_, name: string) => (name in values ? encode(values[name]) : ""));
}
