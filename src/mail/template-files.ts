import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { mailKinds, unknownPlaceholders, type MailKind, type TemplateOverrides } from "./templates.js";

/** File name stem of each mail kind in the templates folder. */
export const templateFileStems: Record<MailKind, string> = {
  email_verification: "email-verification",
  password_reset: "password-reset",
  third_party_account: "third-party-account",
  password_changed: "password-changed",
  passwordless_code: "passwordless-code",
  passwordless_link: "passwordless-link",
  passwordless_code_link: "passwordless-code-link",
  mfa_recovery_code_used: "mfa-recovery-code-used",
  mfa_reset: "mfa-reset",
  webauthn_recovery: "webauthn-recovery",
  email_change: "email-change",
  email_changed: "email-changed",
  account_deletion: "account-deletion",
  login_added: "login-added",
  organization_invitation: "organization-invitation",
  account_secured: "account-secured",
};

/**
 * Reads template overrides from `dir`: for each kind, `<stem>.subject.txt`, `<stem>.txt` and
 * `<stem>.html`, each optional. Read once at start; a template with an unknown {{placeholder}}
 * fails the start with a message naming the file (a typo would otherwise mail a blank).
 */
export function loadTemplateOverrides(dir: string | undefined): TemplateOverrides {
  if (!dir) return {};
  if (!existsSync(dir)) throw new Error(`mail templates folder ${dir} does not exist`);
  const out: TemplateOverrides = {};
  for (const kind of mailKinds) {
    const stem = templateFileStems[kind];
    const parts = { subject: `${stem}.subject.txt`, text: `${stem}.txt`, html: `${stem}.html` } as const;
    for (const [part, file] of Object.entries(parts) as Array<[keyof typeof parts, string]>) {
      const path = join(dir, file);
      if (!existsSync(path)) continue;
      let content = readFileSync(path, "utf8");
      if (part === "subject") content = content.trim();
      const bad = unknownPlaceholders(content);
      if (bad.length) throw new Error(`mail template ${path}: unknown placeholder ${bad.map((b) => `{{${b}}}`).join(", ")}`);
      (out[kind] ??= {})[part] = content;
    }
  }
  return out;
}
