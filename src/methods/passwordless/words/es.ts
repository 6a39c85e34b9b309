import type { Translation } from "../../../words/catalogue.js";
import type { en } from "./en.js";

export const es: Translation<typeof en> = {
  "code.js.or": "o sin contraseña",
  "code.js.emailCode": "Envíame un código de acceso",
  "code.js.emailLink": "Envíame un enlace de acceso",
};
