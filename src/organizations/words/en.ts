/** The organizations room's words in English (the source): the invitation mail. */
export const en = {
  "org.mail.invite.subject": "You are invited to join {details}",
  "org.mail.invite.intro": "you are invited to join {details}. To accept, sign in (or sign up) with {email}.",
  "org.mail.invite.introText": "you are invited to join {details}. To accept, open this link and sign in (or sign up) with {email}:",
  "org.mail.invite.button": "Accept the invitation",
  "org.mail.invite.valid": "The invitation is valid for {validFor} (until {expiresAt}) and works once. If you did not expect it, you can ignore this mail.",
} as const;
