import { renderMailLayout } from "../../mail/html-layout.js";
import { oneTimeTokenExpiry } from "../../mail/kernel-mail.js";
import type { MailBlock } from "../../mail/kinds.js";

declare module "../../mail/kinds.js" {
  interface MailKinds { password_reset: true; password_changed: true }
}

/**
 * The password's mails: the reset link and the notice that the password changed. A reset asked for
 * an address with no password is answered by the kinds of login it has (LoginKind.recoveryNotice).
 */
export const emailPasswordMail: MailBlock = {
  position: 10,
  actions: [
    { action: "reset-password", label: "Reset password", linkPathEnd: "/reset-password", expiry: oneTimeTokenExpiry("password_reset") },
    { action: "password-changed", label: "Password changed" },
  ],
  kinds: [
    { kind: "password_reset", stem: "password-reset", action: "reset-password", template: {
        subject: "Reset your password",
        text: "Hello,\n\nsomeone (hopefully you) asked to reset the password of the account {{email}}. Choose a new password here:\n\n{{link}}\n\nThe link is valid for {{validFor}} (until {{expiresAt}}) and works once.\nIf you did not ask for this, ignore this mail: your password stays as it is.\n",
        html: renderMailLayout({
          title: "Reset your password",
          intro: ["Hello,", "someone (hopefully you) asked to reset the password of the account <strong>{{email}}</strong>."],
          button: "Choose a new password",
          outro: ["The link is valid for {{validFor}} (until {{expiresAt}}) and works once. If you did not ask for this, ignore this mail: your password stays as it is."],
        }),
    } },
    { kind: "password_changed", stem: "password-changed", action: "password-changed", template: {
        subject: "Your password was changed",
        text: "Hello,\n\nthe password of the account {{email}} was just changed: every device signed in to it was signed out, and every app you had allowed to use it must ask you again.\n\nIf this was not you, reset your password at once:\n\n{{link}}\n",
        html: renderMailLayout({
          title: "Your password was changed",
          intro: ["Hello,", "the password of the account <strong>{{email}}</strong> was just changed: every device signed in to it was signed out, and every app you had allowed to use it must ask you again.", "If this was not you, reset your password at once."],
          button: "Reset my password",
          outro: ["If it was you, there is nothing to do."],
        }),
    } },
  ],
};
