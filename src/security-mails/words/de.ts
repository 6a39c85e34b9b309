import type { Translation } from "../../words/catalogue.js";
import type { en } from "./en.js";

export const de: Translation<typeof en> = {
  "secMail.subject": "Neue Anmeldung bei deinem Konto",
  "secMail.intro": "jemand hat sich von einem Gerät oder Netzwerk, das wir noch nicht kannten, bei deinem Konto ({email}) angemeldet: {details}.",
  "secMail.ifYou": "Wenn du das warst, musst du nichts tun.",
  "secMail.ifNotText": "Wenn du es nicht warst, öffne diesen Link: Er meldet alle Geräte und Apps auf einmal von deinem Konto ab und bittet dich, ein neues Passwort zu wählen.",
  "secMail.validText": "Der Link funktioniert einmal, {validFor} lang.",
  "secMail.button": "Das war ich nicht",
  "secMail.outro": "Der Button meldet alle Geräte und Apps auf einmal von deinem Konto ab und bittet dich, ein neues Passwort zu wählen. Er funktioniert einmal, {validFor} lang.",
  "secMail.details": "{when}, {device}",
  "secMail.browserOn": "{browser} unter {os}",
  "secMail.aBrowserOn": "ein Browser unter {os}",
  "secMail.unknownBrowser": "ein unbekannter Browser",
  "notMe.title": "Das war ich nicht",
  "notMe.ask.title": "Hat sich jemand anderes angemeldet?",
  "notMe.ask.text": "Melde jetzt alle Geräte und Apps von deinem Konto ab. Wähle danach ein neues Passwort, damit sich niemand mehr damit anmelden kann.",
  "notMe.ask.button": "Überall abmelden",
  "notMe.done.title": "Überall abgemeldet",
  "notMe.done.text": "Alle Geräte und Apps, die mit deinem Konto angemeldet waren, wurden abgemeldet. Wähle jetzt ein neues Passwort.",
  "notMe.done.reset": "Neues Passwort wählen",
  "notMe.refused.title": "Dieser Link funktioniert nicht",
  "notMe.refused.text": "Er wurde schon benutzt oder ist abgelaufen. Wenn du weiterhin glaubst, dass sich jemand anderes angemeldet hat, setze dein Passwort zurück.",
  "notMe.js.busy": "Alles wird abgemeldet …",
};
