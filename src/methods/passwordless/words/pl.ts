import type { Translation } from "../../../words/catalogue.js";
import type { en } from "./en.js";

export const pl: Translation<typeof en> = {
  "code.js.or": "lub bez hasła",
  "code.js.emailCode": "Wyślij mi kod logowania",
  "code.js.emailLink": "Wyślij mi link logowania",
};
