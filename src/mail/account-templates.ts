import type { MailTemplate } from "./kinds.js";
import { mailLanguage, renderMailLayout } from "./html-layout.js";
import type { Words } from "../words/words.js";

const v = { email: "{{email}}", details: "{{details}}" };

/**
 * Notices about the ways into an account (docs/account-linking.md), in the recipient's words: a
 * login method was added, and a recovery that proved the address for the first time removed what
 * no one had proven was the owner's. {{details}} is the login method (login_added) or the login
 * methods that remain.
 */
export const accountTemplates = {
  login_added: (w: Words): MailTemplate => ({
    subject: w.t("mail.loginAdded.subject"),
    text: `${w.t("mail.hello")}\n\n${w.t("mail.loginAdded.intro", v)}\n\n${w.t("mail.loginAdded.ifNotText")}\n\n{{link}}\n`,
    html: renderMailLayout({
      ...mailLanguage(w),
      title: w.html("mail.loginAdded.subject"),
      intro: [w.html("mail.hello"), w.html("mail.loginAdded.intro", { email: "<strong>{{email}}</strong>", details: "<strong>{{details}}</strong>" }), w.html("mail.loginAdded.ifNot")],
      button: w.html("mail.openAccount"),
      outro: [w.html("mail.ifYou")],
    }),
  }),
  account_secured: (w: Words): MailTemplate => ({
    subject: w.t("mail.secured.subject"),
    text: `${w.t("mail.hello")}\n\n${w.t("mail.secured.intro", v)} ${w.t("mail.secured.remain", v)}\n\n${w.t("mail.secured.check")}\n\n{{link}}\n`,
    html: renderMailLayout({
      ...mailLanguage(w),
      title: w.html("mail.secured.subject"),
      intro: [w.html("mail.hello"), w.html("mail.secured.intro", { email: "<strong>{{email}}</strong>" }), w.html("mail.secured.remain", { details: "<strong>{{details}}</strong>" })],
      button: w.html("mail.openAccount"),
      outro: [w.html("mail.secured.outro")],
    }),
  }),
} as const;
