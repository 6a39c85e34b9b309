import type { Translation } from "../../words/catalogue.js";
import type { en } from "./en.js";

export const pl: Translation<typeof en> = {
  "account.locale.title": "Język Twoich wiadomości",
  "account.locale.label": "Język",
  "account.locale.save": "Zapisz",
  "account.js.localeSaved": "Zapisano: wiadomości będą przychodzić w tym języku.",
  "account.js.supportSession": "Sesja wsparcia: {admin}",
};
