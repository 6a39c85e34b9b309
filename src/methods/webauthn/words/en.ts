/** The passkeys room's words (its part of the sign-in page), in English (the source). */
export const en = {
  "passkey.js.signIn": "Sign in with a passkey",
  "passkey.js.create": "Create a passkey",
  "passkey.js.orPassword": "or with your email and password",
  "passkey.js.orInstead": "or, instead of a password, for the address above",
  "passkey.lost": "Lost your passkey?",
} as const;
