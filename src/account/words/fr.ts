import type { Translation } from "../../words/catalogue.js";
import type { en } from "./en.js";

export const fr: Translation<typeof en> = {
  "account.locale.title": "Langue de vos e-mails",
  "account.locale.label": "Langue",
  "account.locale.save": "Enregistrer",
  "account.js.localeSaved": "Enregistré : vos e-mails seront écrits dans cette langue.",
  "account.js.supportSession": "Session d’assistance de {admin}",
};
