import { mailLanguage, renderMailLayout } from "../../mail/html-layout.js";
import { oneTimeTokenExpiry } from "../../mail/kernel-mail.js";
import type { MailBlock } from "../../mail/kinds.js";

declare module "../../mail/kinds.js" {
  interface MailKinds { webauthn_recovery: true }
}

/** The link that registers a new passkey for an account that lost its own, in the words of the recipient's locale. */
export const webauthnMail: MailBlock = {
  position: 50,
  actions: [{ action: "recover-passkey", label: "Recover passkey", linkPathEnd: "/webauthn/recover", expiry: oneTimeTokenExpiry("webauthn_recovery") }],
  kinds: [
    { kind: "webauthn_recovery", stem: "webauthn-recovery", action: "recover-passkey", template: (w) => {
        const v = { email: "{{email}}", validFor: "{{validFor}}", expiresAt: "{{expiresAt}}" };
        return {
          subject: w.t("passkey.mail.subject"),
          text: `${w.t("mail.hello")}\n\n${w.t("passkey.mail.introText", v)}\n\n{{link}}\n\n${w.t("mail.validOnce", v)} ${w.t("passkey.mail.othersKeep")}\n${w.t("mail.ignore")}\n`,
          html: renderMailLayout({
            ...mailLanguage(w),
            title: w.html("passkey.mail.subject"),
            intro: [w.html("mail.hello"), w.html("passkey.mail.intro", { email: "<strong>{{email}}</strong>" })],
            button: w.html("passkey.mail.button"),
            outro: [`${w.html("mail.validOnce", v)} ${w.html("passkey.mail.othersKeep")} ${w.html("mail.ignore")}`],
          }),
        };
    } },
  ],
};
