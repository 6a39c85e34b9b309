import type { Translation } from "../../words/catalogue.js";
import type { en } from "./en.js";

export const it: Translation<typeof en> = {
  "js.sso.signInWith": "Accedi con l’SSO di {name}",
  "js.sso.offered": "Gli indirizzi del dominio {domain} possono accedere con il Single Sign-On (SSO) di {name}.",
  "js.sso.required": "Gli indirizzi del dominio {domain} accedono solo con il Single Sign-On (SSO) di {name}.",
  "js.sso.going": "Ti stiamo portando all’accesso di {name}…",
};
