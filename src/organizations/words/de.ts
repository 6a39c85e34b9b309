import type { Translation } from "../../words/catalogue.js";
import type { en } from "./en.js";

export const de: Translation<typeof en> = {
  "org.mail.invite.subject": "Deine Einladung zu {details}",
  "org.mail.invite.intro": "du bist eingeladen, {details} beizutreten. Um die Einladung anzunehmen, melde dich mit {email} an (oder registriere dich damit).",
  "org.mail.invite.introText": "du bist eingeladen, {details} beizutreten. Um die Einladung anzunehmen, öffne diesen Link und melde dich mit {email} an (oder registriere dich damit):",
  "org.mail.invite.button": "Einladung annehmen",
  "org.mail.invite.valid": "Die Einladung ist {validFor} lang gültig (bis {expiresAt}) und funktioniert nur einmal. Wenn du sie nicht erwartet hast, kannst du diese Mail ignorieren.",
};
