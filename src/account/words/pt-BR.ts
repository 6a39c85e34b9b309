import type { Translation } from "../../words/catalogue.js";
import type { en } from "./en.js";

export const ptBR: Translation<typeof en> = {
  "account.locale.title": "Idioma dos seus e-mails",
  "account.locale.label": "Idioma",
  "account.locale.save": "Salvar",
  "account.js.localeSaved": "Salvo: seus e-mails virão neste idioma.",
  "account.js.supportSession": "Sessão de suporte de {admin}",
};
