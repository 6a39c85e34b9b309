import type { Translation } from "../../words/catalogue.js";
import type { en } from "./en.js";

export const pl: Translation<typeof en> = {
  "org.mail.invite.subject": "Zaproszenie do {details}",
  "org.mail.invite.intro": "zapraszamy Cię do {details}. Aby przyjąć zaproszenie, zaloguj się (lub załóż konto) adresem {email}.",
  "org.mail.invite.introText": "zapraszamy Cię do {details}. Aby przyjąć zaproszenie, otwórz ten link i zaloguj się (lub załóż konto) adresem {email}:",
  "org.mail.invite.button": "Przyjmij zaproszenie",
  "org.mail.invite.valid": "Zaproszenie jest ważne przez {validFor} (do {expiresAt}) i działa tylko raz. Jeśli się go nie spodziewałeś, zignoruj tę wiadomość.",
};
