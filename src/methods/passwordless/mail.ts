import { renderMailLayout } from "../../mail/html-layout.js";
import type { MailBlock, MailTemplate } from "../../mail/kinds.js";
import { hashToken } from "../../util/random.js";
import { codesVersion, findCodeExpiryByLinkHash } from "./store.js";

declare module "../../mail/kinds.js" {
  interface MailKinds { passwordless_code: true; passwordless_link: true; passwordless_code_link: true }
}

/**
 * The passwordless sign-in mails, one per flow type (docs/passwordless.md): the code large, the
 * link as a button, or both. Same placeholders as every template; {{code}} is the 6-digit code.
 */
export type PasswordlessMailKind = "passwordless_code" | "passwordless_link" | "passwordless_code_link";

const TITLE = "Sign in to your account";
const CODE_TITLE = "Your sign-in code";
const INTRO = "Hello,";
const NOT_YOU = "If you did not ask to sign in, you can ignore this mail: no one can sign in without it.";
const VALID = "valid for {{validFor}} (until {{expiresAt}}) and works once";
const VALID_BOTH = "valid for {{validFor}} (until {{expiresAt}}) and work once";

const templates: Record<PasswordlessMailKind, MailTemplate> = {
  passwordless_code: {
    subject: CODE_TITLE,
    text: `${INTRO}\n\nyour code to sign in as {{email}} is:\n\n    {{code}}\n\nType it on the page where you asked for it. The code is ${VALID}.\n${NOT_YOU}\n`,
    html: renderMailLayout({
      title: CODE_TITLE,
      intro: [INTRO, "your code to sign in as <strong>{{email}}</strong> is:"],
      code: "{{code}}",
      outro: [`Type it on the page where you asked for it. The code is ${VALID}. ${NOT_YOU}`],
    }),
  },
  passwordless_link: {
    subject: TITLE,
    text: `${INTRO}\n\nopen this link to sign in as {{email}}:\n\n{{link}}\n\nThe link is ${VALID}.\n${NOT_YOU}\n`,
    html: renderMailLayout({
      title: TITLE,
      intro: [INTRO, "open this link to sign in as <strong>{{email}}</strong>."],
      button: "Sign in",
      outro: [`The link is ${VALID}. ${NOT_YOU}`],
    }),
  },
  passwordless_code_link: {
    subject: CODE_TITLE,
    text: `${INTRO}\n\nyour code to sign in as {{email}} is:\n\n    {{code}}\n\nType it on the page where you asked for it, or open this link:\n\n{{link}}\n\nThe code and the link are ${VALID_BOTH}.\n${NOT_YOU}\n`,
    html: renderMailLayout({
      title: CODE_TITLE,
      intro: [INTRO, "your code to sign in as <strong>{{email}}</strong> is:"],
      code: "{{code}}",
      button: "Sign in",
      outro: [`Type the code on the page where you asked for it, or use the button. The code and the link are ${VALID_BOTH}. ${NOT_YOU}`],
    }),
  },
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
