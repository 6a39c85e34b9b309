import type { Translation } from "../../../words/catalogue.js";
import type { en } from "./en.js";

export const nl: Translation<typeof en> = {
  "code.js.or": "of zonder wachtwoord",
  "code.js.emailCode": "Mail me een inlogcode",
  "code.js.emailLink": "Mail me een inloglink",
};
