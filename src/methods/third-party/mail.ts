import { renderMailLayout } from "../../mail/html-layout.js";
import type { MailBlock } from "../../mail/kinds.js";

declare module "../../mail/kinds.js" {
  interface MailKinds { third_party_account: true }
}

/**
 * The answer to a password reset asked for an address whose only logins are with providers: it
 * names the provider(s) it signs in with (reset-notice.ts). Listed after the password's mails.
 */
export const thirdPartyMail: MailBlock = {
  position: 20,
  actions: [{ action: "third-party-account", label: "Third-party account notice" }],
  kinds: [
    { kind: "third_party_account", stem: "third-party-account", action: "third-party-account", template: {
        subject: "How you sign in",
        text: "Hello,\n\nsomeone (hopefully you) asked to reset the password of the account {{email}}. This account has no password: it signs in with {{provider}}. Use the \"Continue with {{provider}}\" button here:\n\n{{link}}\n\nIf you did not ask for this, you can ignore this mail.\n",
        html: renderMailLayout({
          title: "How you sign in",
          intro: ["Hello,", "someone (hopefully you) asked to reset the password of the account <strong>{{email}}</strong>. This account has no password: it signs in with <strong>{{provider}}</strong>. Use the “Continue with {{provider}}” button on the sign-in page."],
          button: "Sign in with {{provider}}",
          outro: ["If you did not ask for this, you can ignore this mail."],
        }),
    } },
  ],
};
