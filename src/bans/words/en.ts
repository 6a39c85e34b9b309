/** The bans room's words in English (the source): the notice of a ban. */
export const en = {
  "bans.mail.subject": "Your account has been suspended",
  "bans.mail.intro": "your account ({email}) has been suspended {details}. You cannot sign in, and every device and app signed in with it has been signed out.",
  "bans.mail.button": "Contact support",
  "bans.mail.outro": "If you think this is a mistake, reply to this mail or contact support.",
  "bans.mail.outroText": "If you think this is a mistake, reply to this mail or contact support:",
  "bans.mail.untilFurtherNotice": "until further notice",
  "bans.mail.until": "until {until}",
  "bans.mail.withReason": "{when} (reason: {reason})",
} as const;
