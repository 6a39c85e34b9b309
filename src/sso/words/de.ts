import type { Translation } from "../../words/catalogue.js";
import type { en } from "./en.js";

export const de: Translation<typeof en> = {
  "js.sso.signInWith": "Mit {name}-SSO anmelden",
  "js.sso.offered": "Adressen bei {domain} können sich über das Single Sign-on (SSO) von {name} anmelden.",
  "js.sso.required": "Adressen bei {domain} melden sich nur über das Single Sign-on (SSO) von {name} an.",
  "js.sso.going": "Weiter zur Anmeldung bei {name} …",
};
