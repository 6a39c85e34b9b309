/**
 * Every sentence the protection room says to a person, in one place (the API's refusals and the
 * password checks), so a words layer can take them over in one move.
 */
export const words = {
  captchaRequired: "Please complete the check that you are not a bot, then try again.",
  captchaInvalid: "The check that you are not a bot did not pass. Please complete it again.",
  captchaExpired: "The check that you are not a bot has expired. Please complete it again.",
  captchaUsed: "This check that you are not a bot was already used. Please complete it again.",
  captchaUnavailable: "The check that you are not a bot cannot be verified right now. Please try again in a moment.",
  breached: "This password has appeared in a data breach, so it is not safe to use. Please choose another one.",
  breachedAtSignInTitle: "Please change your password",
  breachedAtSignIn: "The password you signed in with has appeared in a data breach, so others may try it. Choose a new one with Change your password.",
} as const;
