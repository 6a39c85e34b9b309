import { mailLanguage, renderMailLayout } from "../mail/html-layout.js";
import type { MailBlock, MailTemplate } from "../mail/kinds.js";
import type { Words } from "../words/words.js";

declare module "../mail/kinds.js" {
  interface MailKinds { new_sign_in: true }
}

/**
 * A sign-in from a device and network not seen for this person, in their words: {{details}} says
 * when and with what (devices.ts writes it in the same words); {{link}} is "this wasn't me".
 */
const template = (w: Words): MailTemplate => {
  const v = { email: "{{email}}", details: "{{details}}", validFor: "{{validFor}}" };
  return {
    subject: w.t("secMail.subject"),
    text: `${w.t("mail.hello")}\n\n${w.t("secMail.intro", v)}\n\n${w.t("secMail.ifYou")}\n${w.t("secMail.ifNotText")}\n\n{{link}}\n\n${w.t("secMail.validText", v)}\n`,
    html: renderMailLayout({
      ...mailLanguage(w),
      title: w.html("secMail.subject"),
      intro: [w.html("mail.hello"), w.html("secMail.intro", { email: "<strong>{{email}}</strong>", details: "{{details}}" }), w.html("secMail.ifYou")],
      button: w.html("secMail.button"),
      outro: [w.html("secMail.outro", { validFor: "{{validFor}}" })],
    }),
  };
};

export const securityMail: MailBlock = {
  position: 115,
  actions: [{ action: "new-sign-in", label: "New sign-in" }],
  kinds: [{ kind: "new_sign_in", stem: "new-sign-in", action: "new-sign-in", template }],
};
