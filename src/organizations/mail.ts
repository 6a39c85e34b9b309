import { mailLanguage, renderMailLayout } from "../mail/html-layout.js";
import type { MailBlock, MailTemplate } from "../mail/kinds.js";
import type { Words } from "../words/words.js";

declare module "../mail/kinds.js" {
  interface MailKinds { organization_invitation: true }
}

/**
 * The invitation to an organization (src/organizations/): {{details}} names the organization and
 * the role ("Acme (admin)"); the link carries the invitation's token. Written in the invitee's words.
 */
const invitation = (w: Words): MailTemplate => {
  const v = { details: "{{details}}", email: "{{email}}", validFor: "{{validFor}}", expiresAt: "{{expiresAt}}" };
  return {
    subject: w.t("org.mail.invite.subject", v),
    text: `${w.t("mail.hello")}\n\n${w.t("org.mail.invite.introText", v)}\n\n{{link}}\n\n${w.t("org.mail.invite.valid", v)}\n`,
    html: renderMailLayout({
      ...mailLanguage(w),
      title: w.html("org.mail.invite.subject", v),
      intro: [w.html("mail.hello"), w.html("org.mail.invite.intro", { details: "<strong>{{details}}</strong>", email: "<strong>{{email}}</strong>" })],
      button: w.html("org.mail.invite.button"),
      outro: [w.html("org.mail.invite.valid", v)],
    }),
  };
};

export const organizationMail: MailBlock = {
  position: 110,
  actions: [{ action: "organization-invitation", label: "Organization invitation" }],
  kinds: [{ kind: "organization_invitation", stem: "organization-invitation", action: "organization-invitation", template: invitation }],
};
