import type { Translation } from "../../words/catalogue.js";
import type { en } from "./en.js";

export const it: Translation<typeof en> = {
  "org.mail.invite.subject": "Il tuo invito a unirti a {details}",
  "org.mail.invite.intro": "sei stato invitato a unirti a {details}. Per accettare, accedi (o registrati) con {email}.",
  "org.mail.invite.introText": "sei stato invitato a unirti a {details}. Per accettare, apri questo link e accedi (o registrati) con {email}:",
  "org.mail.invite.button": "Accetta l’invito",
  "org.mail.invite.valid": "L’invito è valido per {validFor} (fino al {expiresAt}) e funziona una sola volta. Se non te lo aspettavi, puoi ignorare questa email.",
};
