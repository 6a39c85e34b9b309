import type { Translation } from "../../../words/catalogue.js";
import type { en } from "./en.js";

export const it: Translation<typeof en> = {
  "code.js.or": "oppure senza password",
  "code.js.emailCode": "Inviami un codice di accesso",
  "code.js.emailLink": "Inviami un link di accesso",
};
