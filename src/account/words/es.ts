import type { Translation } from "../../words/catalogue.js";
import type { en } from "./en.js";

export const es: Translation<typeof en> = {
  "account.locale.title": "Idioma de tus correos",
  "account.locale.label": "Idioma",
  "account.locale.save": "Guardar",
  "account.js.localeSaved": "Guardado: tus correos llegarán en este idioma.",
  "account.js.supportSession": "Sesión de soporte de {admin}",
};
