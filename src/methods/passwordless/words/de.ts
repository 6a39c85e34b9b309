import type { Translation } from "../../../words/catalogue.js";
import type { en } from "./en.js";

export const de: Translation<typeof en> = {
  "code.js.or": "oder ohne Passwort",
  "code.js.emailCode": "Anmeldecode per Mail senden",
  "code.js.emailLink": "Anmeldelink per Mail senden",
};
