import type { Translation } from "../../../words/catalogue.js";
import type { en } from "./en.js";

export const de: Translation<typeof en> = {
  "passkey.js.signIn": "Mit Passkey anmelden",
  "passkey.js.create": "Passkey erstellen",
  "passkey.js.orPassword": "oder mit E-Mail-Adresse und Passwort",
  "passkey.js.orInstead": "oder statt eines Passworts für die Adresse oben",
  "passkey.lost": "Passkey verloren?",
};
