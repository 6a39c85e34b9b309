/** The third-party room's words in English (the source): the provider buttons, the callback page, its refusal, the login's name on My account and the mail for an account without a password. */
export const en = {
  "thirdParty.js.continueWith": "Continue with {provider}",
  "thirdParty.js.orEmail": "or with your email",
  "thirdParty.js.failed": "Sign-in failed",
  "thirdParty.js.otherTab": "This sign-in was not started from this browser tab. Please start again.",
  "thirdParty.js.providerRefused": "The provider refused the sign-in ({reason}).",
  "thirdParty.js.stateMismatch": "The sign-in answer does not match the request we sent. Please start again.",
  "thirdParty.js.refusal.elsewhere": "Your provider does not confirm this address, and another account already uses this address. Sign in the way you did before, or with a code we email to the address.",
  "thirdParty.callback.title": "Signing in",
  "thirdParty.callback.progress": "Signing you in…",
  "thirdParty.login": "Sign in with {provider}",
  "thirdParty.mail.subject": "How you sign in",
  "thirdParty.mail.intro": "someone (hopefully you) asked to reset the password of the account {email}. This account has no password: it signs in with {provider}. Use the “Continue with {provider}” button on the sign-in page.",
  "thirdParty.mail.introText": "someone (hopefully you) asked to reset the password of the account {email}. This account has no password: it signs in with {provider}. Use the “Continue with {provider}” button here:",
  "thirdParty.mail.button": "Sign in with {provider}",
} as const;
