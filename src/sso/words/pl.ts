import type { Translation } from "../../words/catalogue.js";
import type { en } from "./en.js";

export const pl: Translation<typeof en> = {
  "js.sso.signInWith": "Zaloguj się przez SSO ({name})",
  "js.sso.offered": "Adresy w domenie {domain} mogą logować się przez jednokrotne logowanie (SSO) organizacji {name}.",
  "js.sso.required": "Adresy w domenie {domain} logują się wyłącznie przez jednokrotne logowanie (SSO) organizacji {name}.",
  "js.sso.going": "Przekierowujemy do logowania organizacji {name}…",
};
