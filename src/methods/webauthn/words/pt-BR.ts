import type { Translation } from "../../../words/catalogue.js";
import type { en } from "./en.js";

export const ptBR: Translation<typeof en> = {
  "passkey.js.signIn": "Entrar com uma chave de acesso",
  "passkey.js.create": "Criar uma chave de acesso",
  "passkey.js.orPassword": "ou com seu e-mail e senha",
  "passkey.js.orInstead": "ou, em vez de uma senha, para o endereço acima",
  "passkey.lost": "Perdeu sua chave de acesso?",
};
