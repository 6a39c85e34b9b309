import { renderMailLayout } from "../mail/html-layout.js";
import type { MailBlock } from "../mail/kinds.js";

declare module "../mail/kinds.js" {
  interface MailKinds { new_sign_in: true }
}

/** A sign-in from a device and network not seen for this person: {{details}} says when and with what; {{link}} is "this wasn't me". */
const template = {
  subject: "A new sign-in to your account",
  text: "Hello,\n\nsomeone signed in to your account ({{email}}) from a device or network we had not seen before: {{details}}.\n\nIf this was you, there is nothing to do.\nIf it was not you, open this link: it signs every device and app out of your account at once and asks you to choose a new password.\n\n{{link}}\n\nThe link works once, for {{validFor}}.\n",
  html: renderMailLayout({
    title: "A new sign-in to your account",
    intro: ["Hello,", "someone signed in to your account (<strong>{{email}}</strong>) from a device or network we had not seen before: {{details}}.", "If this was you, there is nothing to do."],
    button: "This wasn't me",
    outro: ["The button signs every device and app out of your account at once and asks you to choose a new password. It works once, for {{validFor}}."],
  }),
} as const;

export const securityMail: MailBlock = {
  position: 115,
  actions: [{ action: "new-sign-in", label: "New sign-in" }],
  kinds: [{ kind: "new_sign_in", stem: "new-sign-in", action: "new-sign-in", template }],
};
