import type { TokenPurpose } from "../store/one-time-tokens.js";
import { findToken } from "../store/one-time-tokens.js";
import { hashToken } from "../util/random.js";
import { accountTemplates } from "./account-templates.js";
import { renderMailLayout } from "./html-layout.js";
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
      { kind: "email_verification", stem: "email-verification", action: "verify-email", template: {
          subject: "Verify your email address",
          text: "Hello,\n\nplease confirm that {{email}} is your email address by opening this link:\n\n{{link}}\n\nThe link is valid for {{validFor}} (until {{expiresAt}}) and works once.\nIf you did not ask for this, you can ignore this mail.\n",
          html: renderMailLayout({
            title: "Verify your email address",
            intro: ["Hello,", "please confirm that <strong>{{email}}</strong> is your email address."],
            button: "Verify my email address",
            outro: ["The link is valid for {{validFor}} (until {{expiresAt}}) and works once. If you did not ask for this, you can ignore this mail."],
          }),
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
