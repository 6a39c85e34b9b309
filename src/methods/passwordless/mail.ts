import { mailLanguage, renderMailLayout } from "../../mail/html-layout.js";
import type { MailBlock, MailTemplate } from "../../mail/kinds.js";
import { hashToken } from "../../util/random.js";
import type { Words } from "../../words/words.js";
import { codesVersion, findCodeExpiryByLinkHash } from "./store.js";

declare module "../../mail/kinds.js" {
  interface MailKinds { passwordless_code: true; passwordless_link: true; passwordless_code_link: true }
}

/**
 * The passwordless sign-in mails, one per flow type (docs/passwordless.md): the code large, the
 * link as a button, or both, in the words of the recipient's locale. Same placeholders as every
 * template; {{code}} is the 6-digit code.
 */
export type PasswordlessMailKind = "passwordless_code" | "passwordless_link" | "passwordless_code_link";

/** The values every sentence of these mails takes: the template's placeholders, which renderMail fills. */
const v = { email: "{{email}}", validFor: "{{validFor}}", expiresAt: "{{expiresAt}}" };
const strong = { email: "<strong>{{email}}</strong>" };

const templates: Record<PasswordlessMailKind, (w: Words) => MailTemplate> = {
  passwordless_code: (w) => ({
    subject: w.t("code.mail.code.subject"),
    text: `${w.t("mail.hello")}\n\n${w.t("code.mail.code.intro", v)}\n\n    {{code}}\n\n${w.t("code.mail.typeIt")} ${w.t("code.mail.codeValid", v)}\n${w.t("code.mail.notYou")}\n`,
    html: renderMailLayout({
      ...mailLanguage(w),
      title: w.html("code.mail.code.subject"),
      intro: [w.html("mail.hello"), w.html("code.mail.code.intro", strong)],
      code: "{{code}}",
      outro: [`${w.html("code.mail.typeIt")} ${w.html("code.mail.codeValid", v)} ${w.html("code.mail.notYou")}`],
    }),
  }),
  passwordless_link: (w) => ({
    subject: w.t("code.mail.link.subject"),
    text: `${w.t("mail.hello")}\n\n${w.t("code.mail.link.introText", v)}\n\n{{link}}\n\n${w.t("mail.validOnce", v)}\n${w.t("code.mail.notYou")}\n`,
    html: renderMailLayout({
      ...mailLanguage(w),
      title: w.html("code.mail.link.subject"),
      intro: [w.html("mail.hello"), w.html("code.mail.link.intro", strong)],
      button: w.html("code.mail.button"),
      outro: [`${w.html("mail.validOnce", v)} ${w.html("code.mail.notYou")}`],
    }),
  }),
  passwordless_code_link: (w) => ({
    subject: w.t("code.mail.code.subject"),
    text: `${w.t("mail.hello")}\n\n${w.t("code.mail.code.intro", v)}\n\n    {{code}}\n\n${w.t("code.mail.typeOrOpen")}\n\n{{link}}\n\n${w.t("code.mail.bothValid", v)}\n${w.t("code.mail.notYou")}\n`,
    html: renderMailLayout({
      ...mailLanguage(w),
      title: w.html("code.mail.code.subject"),
      intro: [w.html("mail.hello"), w.html("code.mail.code.intro", strong)],
      code: "{{code}}",
      button: w.html("code.mail.button"),
      outro: [`${w.html("code.mail.typeOrButton")} ${w.html("code.mail.bothValid", v)} ${w.html("code.mail.notYou")}`],
    }),
  }),
};

/**
 * Its mails, one action for the three: the inbox says whether a link still works by its link code
 * (the fragment; the typed code maps to the same row), and tail-mail prints the code.
 */
export const passwordlessMail: MailBlock = {
  position: 30,
  actions: [{
    action: "passwordless", label: "Sign-in code or link", linkPathEnd: "/verify", code: "a passwordless sign-in code",
    expiry: async (db, mail) => (mail.link ? findCodeExpiryByLinkHash(db, hashToken(new URL(mail.link).hash.slice(1))) : null),
  }],
  kinds: [
    { kind: "passwordless_code", stem: "passwordless-code", action: "passwordless", template: templates.passwordless_code },
    { kind: "passwordless_link", stem: "passwordless-link", action: "passwordless", template: templates.passwordless_link },
    { kind: "passwordless_code_link", stem: "passwordless-code-link", action: "passwordless", template: templates.passwordless_code_link },
  ],
  // Codes are not one-time tokens: the inbox refreshes when one is issued or used too.
  tokensVersion: codesVersion,
};
