import { renderMailLayout } from "../../mail/html-layout.js";
import { oneTimeTokenExpiry } from "../../mail/kernel-mail.js";
import type { MailBlock } from "../../mail/kinds.js";

declare module "../../mail/kinds.js" {
  interface MailKinds { password_reset: true; password_changed: true; third_party_account: true }
}

/**
 * The password's mails: the reset link, the notice that the password changed, and the answer to a
 * reset asked for an account that has no password (it names the provider it signs in with).
 */
export const emailPasswordMail: MailBlock = {
  after: "verify-email",
  actions: [
    { action: "reset-password", label: "Reset password", linkPathEnd: "/reset-password", expiry: oneTimeTokenExpiry("password_reset") },
    { action: "password-changed", label: "Password changed" },
    { action: "third-party-account", label: "Third-party account notice" },
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
    { kind: "third_party_account", stem: "third-party-account", action: "third-party-account", template: {
        subject: "How you sign in",
        text: "Hello,\n\nsomeone (hopefully you) asked to reset the password of the account {{email}}. This account has no password: it signs in with {{provider}}. Use the \"Continue with {{provider}}\" button here:\n\n{{link}}\n\nIf you did not ask for this, you can ignore this mail.\n",
        html: renderMailLayout({
          title: "How you sign in",
          intro: ["Hello,", "someone (hopefully you) asked to reset the password of the account <strong>{{email}}</strong>. This account has no password: it signs in with <strong>{{provider}}</strong>. Use the “Continue with {{provider}}” button on the sign-in page."],
          button: "Sign in with {{provider}}",
          outro: ["If you did not ask for this, you can ignore this mail."],
        }),
    } },
    { kind: "password_changed", stem: "password-changed", action: "password-changed", template: {
        subject: "Your password was changed",
        text: "Hello,\n\nthe password of the account {{email}} was just changed, and every device signed in to it was signed out.\n\nIf this was not you, reset your password at once:\n\n{{link}}\n",
        html: renderMailLayout({
          title: "Your password was changed",
          intro: ["Hello,", "the password of the account <strong>{{email}}</strong> was just changed, and every device signed in to it was signed out.", "If this was not you, reset your password at once."],
          button: "Reset my password",
          outro: ["If it was you, there is nothing to do."],
        }),
    } },
  ],
};
