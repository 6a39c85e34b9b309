import type { Translation } from "../../words/catalogue.js";
import type { en } from "./en.js";

export const nl: Translation<typeof en> = {
  "account.locale.title": "Taal van je mails",
  "account.locale.label": "Taal",
  "account.locale.save": "Opslaan",
  "account.js.localeSaved": "Opgeslagen: je mails komen voortaan in deze taal.",
  "account.js.supportSession": "Ondersteuningssessie van {admin}",
};
