import { mailLanguage, renderMailLayout } from "../mail/html-layout.js";
import type { MailBlock, MailTemplate } from "../mail/kinds.js";
import type { Words } from "../words/words.js";

declare module "../mail/kinds.js" {
  interface MailKinds { account_banned: true }
}

/**
 * The notice an operator may send with a ban (`--mail`), in the person's words: {{details}} says
 * until when and why (bans.ts writes it in the same words); {{link}} is the website.
 */
const template = (w: Words): MailTemplate => {
  const v = { email: "{{email}}", details: "{{details}}" };
  return {
    subject: w.t("bans.mail.subject"),
    text: `${w.t("mail.hello")}\n\n${w.t("bans.mail.intro", v)}\n\n${w.t("bans.mail.outroText")}\n\n{{link}}\n`,
    html: renderMailLayout({
      ...mailLanguage(w),
      title: w.html("bans.mail.subject"),
      intro: [w.html("mail.hello"), w.html("bans.mail.intro", { email: "<strong>{{email}}</strong>", details: "{{details}}" })],
      button: w.html("bans.mail.button"),
      outro: [w.html("bans.mail.outro")],
    }),
  };
};

export const bansMail: MailBlock = {
  position: 120,
  actions: [{ action: "account-banned", label: "Account suspended" }],
  kinds: [{ kind: "account_banned", stem: "account-banned", action: "account-banned", template }],
};
