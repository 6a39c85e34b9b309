import type { Translation } from "../../words/catalogue.js";
import type { en } from "./en.js";

export const fr: Translation<typeof en> = {
  "js.sso.signInWith": "Se connecter avec le SSO de {name}",
  "js.sso.offered": "Les adresses du domaine {domain} peuvent se connecter via l’authentification unique (SSO) de {name}.",
  "js.sso.required": "Les adresses du domaine {domain} se connectent uniquement via l’authentification unique (SSO) de {name}.",
  "js.sso.going": "Redirection vers la connexion de {name}…",
};
