import { renderMailLayout } from "../mail/html-layout.js";
import type { MailBlock } from "../mail/kinds.js";

declare module "../mail/kinds.js" {
  interface MailKinds { email_change: true; email_changed: true; account_deletion: true }
}

// A new address's token: `email` is the new address, confirmed by the mail sent to it.
declare module "../store/schema.js" {
  interface TokenPurposes { email_change: true }
}

/** The self-service account's mails: a new address confirmed, the old one told, a deletion's grace. */
export const accountMail: MailBlock = {
  position: 60,
  actions: [
    { action: "change-email", label: "Confirm new email" },
    { action: "email-changed", label: "Email changed" },
    { action: "account-deletion", label: "Account deletion" },
  ],
  kinds: [
    { kind: "email_change", stem: "email-change", action: "change-email", template: {
        subject: "Confirm your new email address",
        text: "Hello,\n\nsomeone (hopefully you) asked to use {{email}} as the address of their account. Confirm it by opening this link:\n\n{{link}}\n\nThe link is valid for {{validFor}} (until {{expiresAt}}) and works once.\nIf you did not ask for this, ignore this mail: nothing changes.\n",
        html: renderMailLayout({
          title: "Confirm your new email address",
          intro: ["Hello,", "someone (hopefully you) asked to use <strong>{{email}}</strong> as the address of their account."],
          button: "Confirm my new address",
          outro: ["The link is valid for {{validFor}} (until {{expiresAt}}) and works once. If you did not ask for this, ignore this mail: nothing changes."],
        }),
    } },
    { kind: "email_changed", stem: "email-changed", action: "email-changed", template: {
        subject: "Your email address was changed",
        text: "Hello,\n\nthe account that used {{email}} now signs in with another address; this address no longer reaches it.\n\nIf this was not you, contact support at once and reset your password:\n\n{{link}}\n",
        html: renderMailLayout({
          title: "Your email address was changed",
          intro: ["Hello,", "the account that used <strong>{{email}}</strong> now signs in with another address; this address no longer reaches it.", "If this was not you, contact support at once and reset your password."],
          button: "Reset my password",
          outro: ["If it was you, there is nothing to do."],
        }),
    } },
    { kind: "account_deletion", stem: "account-deletion", action: "account-deletion", template: {
        subject: "Your account will be deleted",
        text: "Hello,\n\nthe account {{email}} was signed out everywhere and will be deleted for good at {{expiresAt}}.\n\nTo keep it, open this link before then:\n\n{{link}}\n",
        html: renderMailLayout({
          title: "Your account will be deleted",
          intro: ["Hello,", "the account <strong>{{email}}</strong> was signed out everywhere and will be deleted for good at {{expiresAt}}."],
          button: "Keep my account",
          outro: ["If you meant to delete it, there is nothing to do."],
        }),
    } },
  ],
};
