import type { Translation } from "../../words/catalogue.js";
import type { en } from "./en.js";

export const de: Translation<typeof en> = {
  "account.locale.title": "Sprache deiner Mails",
  "account.locale.label": "Sprache",
  "account.locale.save": "Speichern",
  "account.js.localeSaved": "Gespeichert: Deine Mails kommen ab jetzt in dieser Sprache.",
  "account.js.supportSession": "Support-Sitzung von {admin}",
};
