import { mailLanguage, renderMailLayout } from "../../mail/html-layout.js";
import type { MailBlock, MailTemplate } from "../../mail/kinds.js";
import type { Words } from "../../words/words.js";

declare module "../../mail/kinds.js" {
  interface MailKinds { third_party_account: true }
}

/**
 * The answer to a password reset asked for an address whose only logins are with providers: it
 * names the provider(s) it signs in with (reset-notice.ts), in the recipient's words.
 */
const template = (w: Words): MailTemplate => {
  const v = { email: "{{email}}", provider: "{{provider}}" };
  return {
    subject: w.t("thirdParty.mail.subject"),
    text: `${w.t("mail.hello")}\n\n${w.t("thirdParty.mail.introText", v)}\n\n{{link}}\n\n${w.t("mail.ignore")}\n`,
    html: renderMailLayout({
      ...mailLanguage(w),
      title: w.html("thirdParty.mail.subject"),
      intro: [w.html("mail.hello"), w.html("thirdParty.mail.intro", { email: "<strong>{{email}}</strong>", provider: "<strong>{{provider}}</strong>" })],
      button: w.html("thirdParty.mail.button", { provider: "{{provider}}" }),
      outro: [w.html("mail.ignore")],
    }),
  };
};

/** Listed after the password's mails. */
export const thirdPartyMail: MailBlock = {
  position: 20,
  actions: [{ action: "third-party-account", label: "Third-party account notice" }],
  kinds: [{ kind: "third_party_account", stem: "third-party-account", action: "third-party-account", template }],
};
