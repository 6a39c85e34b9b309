import { renderMailLayout } from "./html-layout.js";

/**
 * Notices about the ways into an account (docs/account-linking.md): a login method was added, and
 * a recovery that proved the address for the first time removed what no one had proven was the
 * owner's. {{details}} is the login method (login_added) or the login methods that remain.
 */
export const accountTemplates = {
  login_added: {
    subject: "A new way to sign in was added to your account",
    text: "Hello,\n\na new way to sign in was just added to the account {{email}}: {{details}}.\n\nIf this was not you, remove it and change your password at once on your account page:\n\n{{link}}\n",
    html: renderMailLayout({
      title: "A new way to sign in was added to your account",
      intro: ["Hello,", "a new way to sign in was just added to the account <strong>{{email}}</strong>: <strong>{{details}}</strong>.", "If this was not you, remove it and change your password at once."],
      button: "Open my account",
      outro: ["If it was you, there is nothing to do."],
    }),
  },
  account_secured: {
    subject: "Your account was secured",
    text: "Hello,\n\nyou just proved that you own {{email}}. Everything added to the account before anyone had proven that was removed: the devices signed in with it were signed out, and the apps allowed to use it must ask again. These ways to sign in remain: {{details}}.\n\nCheck your account here:\n\n{{link}}\n",
    html: renderMailLayout({
      title: "Your account was secured",
      intro: ["Hello,", "you just proved that you own <strong>{{email}}</strong>. Everything added to the account before anyone had proven that was removed: the devices signed in with it were signed out, and the apps allowed to use it must ask again.", "These ways to sign in remain: <strong>{{details}}</strong>."],
      button: "Open my account",
      outro: ["If you did not expect this, someone may have signed up with your address before you: nothing of theirs is left in your account."],
    }),
  },
} as const;
