import type { Translation } from "../../../words/catalogue.js";
import type { en } from "./en.js";

export const fr: Translation<typeof en> = {
  "code.js.or": "ou sans mot de passe",
  "code.js.emailCode": "M’envoyer un code de connexion",
  "code.js.emailLink": "M’envoyer un lien de connexion",
};
