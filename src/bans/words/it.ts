import type { Translation } from "../../words/catalogue.js";
import type { en } from "./en.js";

export const it: Translation<typeof en> = {
  "bans.mail.subject": "Il tuo account è stato sospeso",
  "bans.mail.intro": "il tuo account ({email}) è stato sospeso {details}. Non puoi accedere, e tutti i dispositivi e le app collegati con questo account sono stati disconnessi.",
  "bans.mail.button": "Contatta l’assistenza",
  "bans.mail.outro": "Se pensi che sia un errore, rispondi a questa mail o contatta l’assistenza.",
  "bans.mail.outroText": "Se pensi che sia un errore, rispondi a questa mail o contatta l’assistenza:",
  "bans.mail.untilFurtherNotice": "fino a nuovo avviso",
  "bans.mail.until": "fino al {until}",
  "bans.mail.withReason": "{when} (motivo: {reason})",
};
