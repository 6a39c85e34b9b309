import type { Translation } from "../../words/catalogue.js";
import type { en } from "./en.js";

export const pl: Translation<typeof en> = {
  "secMail.subject": "Nowe logowanie na Twoje konto",
  "secMail.intro": "ktoś zalogował się na Twoje konto ({email}) z urządzenia lub sieci, których wcześniej nie widzieliśmy: {details}.",
  "secMail.ifYou": "Jeśli to Ty, nie musisz nic robić.",
  "secMail.ifNotText": "Jeśli to nie Ty, otwórz ten link: od razu wyloguje Twoje konto ze wszystkich urządzeń i aplikacji i poprosi Cię o wybranie nowego hasła.",
  "secMail.validText": "Link działa jeden raz, przez {validFor}.",
  "secMail.button": "To nie ja",
  "secMail.outro": "Przycisk od razu wyloguje Twoje konto ze wszystkich urządzeń i aplikacji i poprosi Cię o wybranie nowego hasła. Działa jeden raz, przez {validFor}.",
  "secMail.details": "{when}, {device}",
  "secMail.browserOn": "{browser} w systemie {os}",
  "secMail.aBrowserOn": "przeglądarka w systemie {os}",
  "secMail.unknownBrowser": "nieznana przeglądarka",
  "notMe.title": "To nie ja",
  "notMe.ask.title": "Ktoś inny się zalogował?",
  "notMe.ask.text": "Wyloguj teraz swoje konto ze wszystkich urządzeń i aplikacji. Potem wybierz nowe hasło, żeby ta osoba nie mogła zalogować się ponownie.",
  "notMe.ask.button": "Wyloguj wszędzie",
  "notMe.done.title": "Wylogowano wszędzie",
  "notMe.done.text": "Wszystkie urządzenia i aplikacje zalogowane na Twoje konto zostały wylogowane. Teraz wybierz nowe hasło.",
  "notMe.done.reset": "Wybierz nowe hasło",
  "notMe.refused.title": "Ten link nie działa",
  "notMe.refused.text": "Został już użyty albo wygasł. Jeśli nadal uważasz, że ktoś inny się zalogował, zresetuj hasło.",
  "notMe.js.busy": "Wylogowywanie wszędzie…",
};
