import { mailLanguage, renderMailLayout } from "../../mail/html-layout.js";
import { oneTimeTokenExpiry } from "../../mail/kernel-mail.js";
import type { MailBlock } from "../../mail/kinds.js";

declare module "../../mail/kinds.js" {
  interface MailKinds { password_reset: true; password_changed: true }
}

/**
 * The password's mails: the reset link and the notice that the password changed. A reset asked for
 * an address with no password is answered by the kinds of login it has (LoginKind.recoveryNotice).
 */
export const emailPasswordMail: MailBlock = {
  position: 10,
  actions: [
    { action: "reset-password", label: "Reset password", linkPathEnd: "/reset-password", expiry: oneTimeTokenExpiry("password_reset") },
    { action: "password-changed", label: "Password changed" },
  ],
  kinds: [
    { kind: "password_reset", stem: "password-reset", action: "reset-password", template: (w) => {
        const v = { email: "{{email}}", validFor: "{{validFor}}", expiresAt: "{{expiresAt}}" };
        return {
          subject: w.t("password.mail.reset.subject"),
          text: `${w.t("mail.hello")}\n\n${w.t("password.mail.reset.introText", v)}\n\n{{link}}\n\n${w.t("mail.validOnce", v)}\n${w.t("password.mail.reset.ignore")}\n`,
          html: renderMailLayout({
            ...mailLanguage(w),
            title: w.html("password.mail.reset.subject"),
            intro: [w.html("mail.hello"), w.html("password.mail.reset.intro", { email: "<strong>{{email}}</strong>" })],
            button: w.html("password.mail.reset.button"),
            outro: [`${w.html("mail.validOnce", v)} ${w.html("password.mail.reset.ignore")}`],
          }),
        };
    } },
    { kind: "password_changed", stem: "password-changed", action: "password-changed", template: (w) => ({
        subject: w.t("password.mail.changed.subject"),
        text: `${w.t("mail.hello")}\n\n${w.t("password.mail.changed.intro", { email: "{{email}}" })}\n\n${w.t("password.mail.changed.notYouText")}\n\n{{link}}\n`,
        html: renderMailLayout({
          ...mailLanguage(w),
          title: w.html("password.mail.changed.subject"),
          intro: [w.html("mail.hello"), w.html("password.mail.changed.intro", { email: "<strong>{{email}}</strong>" }), w.html("password.mail.changed.notYou")],
          button: w.html("password.mail.changed.button"),
          outro: [w.html("password.mail.changed.wasYou")],
        }),
    }) },
  ],
};
