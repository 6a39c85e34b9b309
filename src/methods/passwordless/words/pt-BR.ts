import type { Translation } from "../../../words/catalogue.js";
import type { en } from "./en.js";

export const ptBR: Translation<typeof en> = {
  "code.js.or": "ou sem senha",
  "code.js.emailCode": "Enviar um código de acesso por e-mail",
  "code.js.emailLink": "Enviar um link de acesso por e-mail",
};
