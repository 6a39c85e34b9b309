import type { Translation } from "../../../words/catalogue.js";
import type { en } from "./en.js";

export const nl: Translation<typeof en> = {
  "passkey.js.signIn": "Inloggen met een passkey",
  "passkey.js.create": "Passkey aanmaken",
  "passkey.js.orPassword": "of met je e-mailadres en wachtwoord",
  "passkey.js.orInstead": "of, in plaats van een wachtwoord, voor het adres hierboven",
  "passkey.lost": "Passkey kwijt?",
};
