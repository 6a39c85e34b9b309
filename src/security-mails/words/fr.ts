import type { Translation } from "../../words/catalogue.js";
import type { en } from "./en.js";

export const fr: Translation<typeof en> = {
  "secMail.subject": "Nouvelle connexion à votre compte",
  "secMail.intro": "Quelqu’un s’est connecté à votre compte ({email}) depuis un appareil ou un réseau que nous ne connaissions pas : {details}.",
  "secMail.ifYou": "Si c’était vous, vous n’avez rien à faire.",
  "secMail.ifNotText": "Si ce n’était pas vous, ouvrez ce lien : il déconnecte d’un coup tous les appareils et applications de votre compte et vous invite à choisir un nouveau mot de passe.",
  "secMail.validText": "Le lien ne fonctionne qu’une fois, pendant {validFor}.",
  "secMail.button": "Ce n’était pas moi",
  "secMail.outro": "Le bouton déconnecte d’un coup tous les appareils et applications de votre compte et vous invite à choisir un nouveau mot de passe. Il ne fonctionne qu’une fois, pendant {validFor}.",
  "secMail.details": "{when}, {device}",
  "secMail.browserOn": "{browser} sous {os}",
  "secMail.aBrowserOn": "un navigateur sous {os}",
  "secMail.unknownBrowser": "un navigateur inconnu",
  "notMe.title": "Ce n’était pas moi",
  "notMe.ask.title": "Quelqu’un d’autre s’est connecté ?",
  "notMe.ask.text": "Déconnectez maintenant tous les appareils et applications de votre compte. Choisissez ensuite un nouveau mot de passe, pour que cette personne ne puisse plus se connecter.",
  "notMe.ask.button": "Tout déconnecter",
  "notMe.done.title": "Tout est déconnecté",
  "notMe.done.text": "Tous les appareils et applications connectés à votre compte ont été déconnectés. Choisissez maintenant un nouveau mot de passe.",
  "notMe.done.reset": "Choisir un nouveau mot de passe",
  "notMe.refused.title": "Ce lien ne fonctionne pas",
  "notMe.refused.text": "Il a déjà été utilisé ou il a expiré. Si vous pensez toujours que quelqu’un d’autre s’est connecté, réinitialisez votre mot de passe.",
  "notMe.js.busy": "Déconnexion de tous les appareils…",
};
