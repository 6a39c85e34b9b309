import type { Translation } from "../../words/catalogue.js";
import type { en } from "./en.js";

export const ptBR: Translation<typeof en> = {
  "js.sso.signInWith": "Entrar com o SSO de {name}",
  "js.sso.offered": "Endereços do domínio {domain} podem entrar pelo login único (SSO) de {name}.",
  "js.sso.required": "Endereços do domínio {domain} só podem entrar pelo login único (SSO) de {name}.",
  "js.sso.going": "Levando você para o login de {name}…",
};
