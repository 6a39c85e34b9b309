import { mailLanguage, renderMailLayout } from "../mail/html-layout.js";
import type { MailBlock, MailTemplate } from "../mail/kinds.js";
import type { Words } from "../words/words.js";

declare module "../mail/kinds.js" {
  interface MailKinds { email_change: true; email_changed: true; account_deletion: true }
}

// A new address's token: `email` is the new address, confirmed by the mail sent to it.
declare module "../store/schema.js" {
  interface TokenPurposes { email_change: true }
}

const v = { email: "{{email}}", validFor: "{{validFor}}", expiresAt: "{{expiresAt}}" };
const bold = { email: "<strong>{{email}}</strong>", expiresAt: "{{expiresAt}}" };

/** A new address confirmed by the mail sent to it. */
const emailChange = (w: Words): MailTemplate => ({
  subject: w.t("account.mail.change.subject"),
  text: `${w.t("mail.hello")}\n\n${w.t("account.mail.change.introText", v)}\n\n{{link}}\n\n${w.t("account.mail.change.valid", v)}\n`,
  html: renderMailLayout({
    ...mailLanguage(w),
    title: w.html("account.mail.change.subject"),
    intro: [w.html("mail.hello"), w.html("account.mail.change.intro", bold)],
    button: w.html("account.mail.change.button"),
    outro: [w.html("account.mail.change.valid", v)],
  }),
});

/** The old address told that it no longer reaches the account. */
const emailChanged = (w: Words): MailTemplate => ({
  subject: w.t("account.mail.changed.subject"),
  text: `${w.t("mail.hello")}\n\n${w.t("account.mail.changed.intro", v)}\n\n${w.t("account.mail.changed.ifNotText")}\n\n{{link}}\n`,
  html: renderMailLayout({
    ...mailLanguage(w),
    title: w.html("account.mail.changed.subject"),
    intro: [w.html("mail.hello"), w.html("account.mail.changed.intro", bold), w.html("account.mail.changed.ifNot")],
    button: w.html("account.mail.changed.button"),
    outro: [w.html("mail.ifYou")],
  }),
});

/** A deletion's grace: the link keeps the account. */
const accountDeletion = (w: Words): MailTemplate => ({
  subject: w.t("account.mail.deletion.subject"),
  text: `${w.t("mail.hello")}\n\n${w.t("account.mail.deletion.intro", v)}\n\n${w.t("account.mail.deletion.keepText")}\n\n{{link}}\n`,
  html: renderMailLayout({
    ...mailLanguage(w),
    title: w.html("account.mail.deletion.subject"),
    intro: [w.html("mail.hello"), w.html("account.mail.deletion.intro", bold)],
    button: w.html("account.mail.deletion.button"),
    outro: [w.html("account.mail.deletion.outro")],
  }),
});

/** The self-service account's mails, in the recipient's words: a new address confirmed, the old one told, a deletion's grace. */
export const accountMail: MailBlock = {
  position: 60,
  actions: [
    { action: "change-email", label: "Confirm new email" },
    { action: "email-changed", label: "Email changed" },
    { action: "account-deletion", label: "Account deletion" },
  ],
  kinds: [
    { kind: "email_change", stem: "email-change", action: "change-email", template: emailChange },
    { kind: "email_changed", stem: "email-changed", action: "email-changed", template: emailChanged },
    { kind: "account_deletion", stem: "account-deletion", action: "account-deletion", template: accountDeletion },
  ],
};
