import type { Translation } from "../../../words/catalogue.js";
import type { en } from "./en.js";

export const fr: Translation<typeof en> = {
  "passkey.js.signIn": "Se connecter avec une clé d’accès",
  "passkey.js.create": "Créer une clé d’accès",
  "passkey.js.orPassword": "ou avec votre e-mail et votre mot de passe",
  "passkey.js.orInstead": "ou, au lieu d’un mot de passe, pour l’adresse ci-dessus",
  "passkey.lost": "Clé d’accès perdue ?",
};
