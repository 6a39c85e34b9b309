import type { Translation } from "../../words/catalogue.js";
import type { en } from "./en.js";

export const it: Translation<typeof en> = {
  "account.locale.title": "Lingua delle tue email",
  "account.locale.label": "Lingua",
  "account.locale.save": "Salva",
  "account.js.localeSaved": "Salvato: le tue email saranno scritte in questa lingua.",
  "account.js.supportSession": "Sessione di assistenza di {admin}",
};
