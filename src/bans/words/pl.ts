import type { Translation } from "../../words/catalogue.js";
import type { en } from "./en.js";

export const pl: Translation<typeof en> = {
  "bans.mail.subject": "Twoje konto zostało zawieszone",
  "bans.mail.intro": "Twoje konto ({email}) zostało zawieszone {details}. Nie możesz się zalogować, a wszystkie urządzenia i aplikacje zalogowane na to konto zostały wylogowane.",
  "bans.mail.button": "Skontaktuj się z pomocą",
  "bans.mail.outro": "Jeśli uważasz, że to pomyłka, odpowiedz na tę wiadomość lub skontaktuj się z pomocą.",
  "bans.mail.outroText": "Jeśli uważasz, że to pomyłka, odpowiedz na tę wiadomość lub skontaktuj się z pomocą:",
  "bans.mail.untilFurtherNotice": "do odwołania",
  "bans.mail.until": "do {until}",
  "bans.mail.withReason": "{when} (powód: {reason})",
};
