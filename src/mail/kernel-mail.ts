import type { TokenPurpose } from "../store/one-time-tokens.js";
import { findToken } from "../store/one-time-tokens.js";
import { hashToken } from "../util/random.js";
import { accountTemplates } from "./account-templates.js";
import { mailLanguage, renderMailLayout } from "./html-layout.js";
import type { MailBlock, TokenExpiry } from "./kinds.js";

/** A mail whose link carries a one-time token of this purpose: valid while the token's row exists. */
export function oneTimeTokenExpiry(purpose: TokenPurpose): TokenExpiry {
  return async (db, mail) => {
    if (!mail.token) return null;
    const row = await findToken(db, hashToken(mail.token), purpose);
    return row ? Number(row.expires_at) : undefined;
  };
}

/**
 * The kernel's own mail, in two blocks: the address's verification, first in every list, and the
 * notices about the ways into an account, after the sign-in methods' and the account's mail.
 */
export const kernelMail: readonly MailBlock[] = [
  {
    position: 0,
    actions: [{ action: "verify-email", label: "Verify email", linkPathEnd: "/verify-email", expiry: oneTimeTokenExpiry("email_verification") }],
    kinds: [
      { kind: "email_verification", stem: "email-verification", action: "verify-email", template: (w) => {
        const v = { email: "{{email}}", validFor: "{{validFor}}", expiresAt: "{{expiresAt}}" };
        return {
          subject: w.t("mail.verify.subject"),
          text: `${w.t("mail.hello")}\n\n${w.t("mail.verify.introText", v)}\n\n{{link}}\n\n${w.t("mail.validOnce", v)}\n${w.t("mail.ignore")}\n`,
          html: renderMailLayout({
            ...mailLanguage(w),
            title: w.html("mail.verify.subject"),
            intro: [w.html("mail.hello"), w.html("mail.verify.intro", { email: "<strong>{{email}}</strong>" })],
            button: w.html("mail.verify.button"),
            outro: [`${w.html("mail.validOnce", v)} ${w.html("mail.ignore")}`],
          }),
        };
      } },
    ],
  },
  {
    position: 100,
    actions: [
      { action: "login-added", label: "Sign-in method added" },
      { action: "account-secured", label: "Account secured" },
    ],
    kinds: [
      { kind: "login_added", stem: "login-added", action: "login-added", template: accountTemplates.login_added },
      { kind: "account_secured", stem: "account-secured", action: "account-secured", template: accountTemplates.account_secured },
    ],
  },
];
