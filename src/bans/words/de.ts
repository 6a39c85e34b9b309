import type { Translation } from "../../words/catalogue.js";
import type { en } from "./en.js";

export const de: Translation<typeof en> = {
  "bans.mail.subject": "Dein Konto wurde gesperrt",
  "bans.mail.intro": "dein Konto ({email}) wurde {details} gesperrt. Du kannst dich nicht anmelden, und alle Geräte und Apps, die damit angemeldet waren, wurden abgemeldet.",
  "bans.mail.button": "Support kontaktieren",
  "bans.mail.outro": "Wenn du glaubst, dass das ein Fehler ist, antworte auf diese Mail oder wende dich an den Support.",
  "bans.mail.outroText": "Wenn du glaubst, dass das ein Fehler ist, antworte auf diese Mail oder wende dich an den Support:",
  "bans.mail.untilFurtherNotice": "bis auf Weiteres",
  "bans.mail.until": "bis {until}",
  "bans.mail.withReason": "{when} (Grund: {reason})",
};
