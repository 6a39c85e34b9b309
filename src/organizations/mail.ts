import { renderMailLayout } from "../mail/html-layout.js";
import type { MailBlock } from "../mail/kinds.js";

declare module "../mail/kinds.js" {
  interface MailKinds { organization_invitation: true }
}

/**
 * The invitation to an organization (src/organizations/): {{details}} names the organization and
 * the role ("Acme (role: admin)"); the link carries the invitation's token.
 */
const templates = {
  organization_invitation: {
    subject: "You are invited to join {{details}}",
    text: "Hello,\n\nyou are invited to join {{details}}. To accept, open this link and sign in (or sign up) with {{email}}:\n\n{{link}}\n\nThe invitation is valid for {{validFor}} (until {{expiresAt}}) and works once.\nIf you did not expect it, you can ignore this mail.\n",
    html: renderMailLayout({
      title: "You are invited to join {{details}}",
      intro: ["Hello,", "you are invited to join <strong>{{details}}</strong>. To accept, sign in (or sign up) with <strong>{{email}}</strong>."],
      button: "Accept the invitation",
      outro: ["The invitation is valid for {{validFor}} (until {{expiresAt}}) and works once. If you did not expect it, you can ignore this mail."],
    }),
  },
} as const;

export const organizationMail: MailBlock = {
  position: 110,
  actions: [{ action: "organization-invitation", label: "Organization invitation" }],
  kinds: [{ kind: "organization_invitation", stem: "organization-invitation", action: "organization-invitation", template: templates.organization_invitation }],
};
