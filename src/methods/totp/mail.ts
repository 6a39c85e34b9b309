import { renderMailLayout } from "../../mail/html-layout.js";
import type { MailBlock } from "../../mail/kinds.js";

declare module "../../mail/kinds.js" {
  interface MailKinds { mfa_recovery_code_used: true; mfa_reset: true }
}

/** The second factor's notices: a recovery code was used, an administrator removed the factor. */
export const totpMail: MailBlock = {
  position: 40,
  actions: [
    { action: "mfa-recovery-code-used", label: "Recovery code used" },
    { action: "mfa-reset", label: "Second factor removed" },
  ],
  kinds: [
    { kind: "mfa_recovery_code_used", stem: "mfa-recovery-code-used", action: "mfa-recovery-code-used", template: {
        subject: "A recovery code was used to sign in",
        text: "Hello,\n\na recovery code was just used in place of an authenticator code to sign in to the account {{email}}. Each code works once.\n\nIf this was not you, your password and a recovery code are known to someone else: change your password and make new recovery codes at once:\n\n{{link}}\n",
        html: renderMailLayout({
          title: "A recovery code was used to sign in",
          intro: ["Hello,", "a recovery code was just used in place of an authenticator code to sign in to the account <strong>{{email}}</strong>. Each code works once.", "If this was not you, your password and a recovery code are known to someone else: change your password and make new recovery codes at once."],
          button: "Manage my second factor",
          outro: ["If it was you, consider making a new set of recovery codes."],
        }),
    } },
    { kind: "mfa_reset", stem: "mfa-reset", action: "mfa-reset", template: {
        subject: "Your second factor was removed",
        text: "Hello,\n\nan administrator removed the second factor (authenticator app and recovery codes) of the account {{email}}. You now sign in with your password alone until you set a second factor up again:\n\n{{link}}\n\nIf you did not ask for this, contact the administrator at once.\n",
        html: renderMailLayout({
          title: "Your second factor was removed",
          intro: ["Hello,", "an administrator removed the second factor (authenticator app and recovery codes) of the account <strong>{{email}}</strong>. You now sign in with your password alone until you set a second factor up again."],
          button: "Set up a second factor",
          outro: ["If you did not ask for this, contact the administrator at once."],
        }),
    } },
  ],
};
