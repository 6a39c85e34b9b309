import type { Translation } from "../../words/catalogue.js";
import type { en } from "./en.js";

export const fr: Translation<typeof en> = {
  "bans.mail.subject": "Votre compte a été suspendu",
  "bans.mail.intro": "Votre compte ({email}) a été suspendu {details}. Vous ne pouvez plus vous connecter, et tous les appareils et applications connectés avec ce compte ont été déconnectés.",
  "bans.mail.button": "Contacter le support",
  "bans.mail.outro": "Si vous pensez qu’il s’agit d’une erreur, répondez à ce message ou contactez le support.",
  "bans.mail.outroText": "Si vous pensez qu’il s’agit d’une erreur, répondez à ce message ou contactez le support :",
  "bans.mail.untilFurtherNotice": "jusqu’à nouvel ordre",
  "bans.mail.until": "jusqu’au {until}",
  "bans.mail.withReason": "{when} (motif : {reason})",
};
