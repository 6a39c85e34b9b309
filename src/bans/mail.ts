import { renderMailLayout } from "../mail/html-layout.js";
import type { MailBlock } from "../mail/kinds.js";

declare module "../mail/kinds.js" {
  interface MailKinds { account_banned: true }
}

/** The notice an operator may send with a ban (`--mail`): {{details}} says until when and why; {{link}} is the website. */
const template = {
  subject: "Your account has been suspended",
  text: "Hello,\n\nyour account ({{email}}) has been suspended {{details}}. You cannot sign in, and every device and app signed in with it has been signed out.\n\nIf you think this is a mistake, reply to this mail or contact support:\n\n{{link}}\n",
  html: renderMailLayout({
    title: "Your account has been suspended",
    intro: ["Hello,", "your account (<strong>{{email}}</strong>) has been suspended {{details}}. You cannot sign in, and every device and app signed in with it has been signed out."],
    button: "Contact support",
    outro: ["If you think this is a mistake, reply to this mail or contact support."],
  }),
} as const;

export const bansMail: MailBlock = {
  position: 120,
  actions: [{ action: "account-banned", label: "Account suspended" }],
  kinds: [{ kind: "account_banned", stem: "account-banned", action: "account-banned", template }],
};
