/** The passwordless room's words (its part of the sign-in page), in English (the source). */
export const en = {
  "code.js.or": "or without a password",
  "code.js.emailCode": "Email me a sign-in code",
  "code.js.emailLink": "Email me a sign-in link",
} as const;
