/** The sso room's words in English (the source): the sign-in page's routing to an organization's single sign-on. */
export const en = {
  "js.sso.signInWith": "Sign in with {name} SSO",
  "js.sso.offered": "Addresses at {domain} can sign in through {name}'s single sign-on (SSO).",
  "js.sso.required": "Addresses at {domain} sign in only through {name}'s single sign-on (SSO).",
  "js.sso.going": "Taking you to {name}'s sign-in…",
} as const;
