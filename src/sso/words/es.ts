import type { Translation } from "../../words/catalogue.js";
import type { en } from "./en.js";

export const es: Translation<typeof en> = {
  "js.sso.signInWith": "Iniciar sesión con el SSO de {name}",
  "js.sso.offered": "Las direcciones del dominio {domain} pueden iniciar sesión con el inicio de sesión único (SSO) de {name}.",
  "js.sso.required": "Las direcciones del dominio {domain} solo pueden iniciar sesión con el inicio de sesión único (SSO) de {name}.",
  "js.sso.going": "Te llevamos al inicio de sesión de {name}…",
};
