import type { Translation } from "../../../words/catalogue.js";
import type { en } from "./en.js";

export const it: Translation<typeof en> = {
  "passkey.js.signIn": "Accedi con una passkey",
  "passkey.js.create": "Crea una passkey",
  "passkey.js.orPassword": "oppure con email e password",
  "passkey.js.orInstead": "oppure, al posto di una password, per l’indirizzo qui sopra",
  "passkey.lost": "Hai perso la passkey?",
};
