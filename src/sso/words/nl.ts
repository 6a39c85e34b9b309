import type { Translation } from "../../words/catalogue.js";
import type { en } from "./en.js";

export const nl: Translation<typeof en> = {
  "js.sso.signInWith": "Inloggen met {name}-SSO",
  "js.sso.offered": "Adressen op {domain} kunnen inloggen via single sign-on (SSO) van {name}.",
  "js.sso.required": "Adressen op {domain} loggen alleen in via single sign-on (SSO) van {name}.",
  "js.sso.going": "We sturen je door naar het inloggen bij {name}…",
};
