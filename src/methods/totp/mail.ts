import { mailLanguage, renderMailLayout } from "../../mail/html-layout.js";
import type { MailBlock } from "../../mail/kinds.js";

declare module "../../mail/kinds.js" {
  interface MailKinds { mfa_recovery_code_used: true; mfa_reset: true }
}

const strong = { email: "<strong>{{email}}</strong>" };

/** The second factor's notices, in the words of the recipient's locale: a recovery code was used, an administrator removed the factor. */
export const totpMail: MailBlock = {
  position: 40,
  actions: [
    { action: "mfa-recovery-code-used", label: "Recovery code used" },
    { action: "mfa-reset", label: "Second factor removed" },
  ],
  kinds: [
    { kind: "mfa_recovery_code_used", stem: "mfa-recovery-code-used", action: "mfa-recovery-code-used", template: (w) => ({
        subject: w.t("totp.mail.used.subject"),
        text: `${w.t("mail.hello")}\n\n${w.t("totp.mail.used.intro", { email: "{{email}}" })}\n\n${w.t("totp.mail.used.notYouText")}\n\n{{link}}\n`,
        html: renderMailLayout({
          ...mailLanguage(w),
          title: w.html("totp.mail.used.subject"),
          intro: [w.html("mail.hello"), w.html("totp.mail.used.intro", strong), w.html("totp.mail.used.notYou")],
          button: w.html("totp.mail.used.button"),
          outro: [w.html("totp.mail.used.wasYou")],
        }),
    }) },
    { kind: "mfa_reset", stem: "mfa-reset", action: "mfa-reset", template: (w) => ({
        subject: w.t("totp.mail.reset.subject"),
        text: `${w.t("mail.hello")}\n\n${w.t("totp.mail.reset.introText", { email: "{{email}}" })}\n\n{{link}}\n\n${w.t("totp.mail.reset.contact")}\n`,
        html: renderMailLayout({
          ...mailLanguage(w),
          title: w.html("totp.mail.reset.subject"),
          intro: [w.html("mail.hello"), w.html("totp.mail.reset.intro", strong)],
          button: w.html("totp.mail.reset.button"),
          outro: [w.html("totp.mail.reset.contact")],
        }),
    }) },
  ],
};
