import type { Translation } from "../../../words/catalogue.js";
import type { en } from "./en.js";

export const pl: Translation<typeof en> = {
  "passkey.js.signIn": "Zaloguj się kluczem dostępu",
  "passkey.js.create": "Utwórz klucz dostępu",
  "passkey.js.orPassword": "lub adresem e-mail i hasłem",
  "passkey.js.orInstead": "lub zamiast hasła dla adresu powyżej",
  "passkey.lost": "Zgubiony klucz dostępu?",
};
