import { renderMailLayout } from "../../mail/html-layout.js";
import { oneTimeTokenExpiry } from "../../mail/kernel-mail.js";
import type { MailBlock } from "../../mail/kinds.js";

declare module "../../mail/kinds.js" {
  interface MailKinds { webauthn_recovery: true }
}

/** The link that registers a new passkey for an account that lost its own. */
export const webauthnMail: MailBlock = {
  position: 50,
  actions: [{ action: "recover-passkey", label: "Recover passkey", linkPathEnd: "/webauthn/recover", expiry: oneTimeTokenExpiry("webauthn_recovery") }],
  kinds: [
    { kind: "webauthn_recovery", stem: "webauthn-recovery", action: "recover-passkey", template: {
        subject: "Create a new passkey",
        text: "Hello,\n\nsomeone (hopefully you) asked to recover the account {{email}}, which signs in with a passkey. Create a new passkey here:\n\n{{link}}\n\nThe link is valid for {{validFor}} (until {{expiresAt}}) and works once. Your other passkeys keep working.\nIf you did not ask for this, ignore this mail.\n",
        html: renderMailLayout({
          title: "Create a new passkey",
          intro: ["Hello,", "someone (hopefully you) asked to recover the account <strong>{{email}}</strong>, which signs in with a passkey."],
          button: "Create a new passkey",
          outro: ["The link is valid for {{validFor}} (until {{expiresAt}}) and works once. Your other passkeys keep working. If you did not ask for this, ignore this mail."],
        }),
    } },
  ],
};
