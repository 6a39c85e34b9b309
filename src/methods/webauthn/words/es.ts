import type { Translation } from "../../../words/catalogue.js";
import type { en } from "./en.js";

export const es: Translation<typeof en> = {
  "passkey.js.signIn": "Iniciar sesión con una llave de acceso",
  "passkey.js.create": "Crear una llave de acceso",
  "passkey.js.orPassword": "o con tu correo y contraseña",
  "passkey.js.orInstead": "o, en lugar de una contraseña, para la dirección de arriba",
  "passkey.lost": "¿Perdiste tu llave de acceso?",
};
