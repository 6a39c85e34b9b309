import type { Translation } from "../../words/catalogue.js";
import type { en } from "./en.js";

export const nl: Translation<typeof en> = {
  "org.mail.invite.subject": "Je uitnodiging voor {details}",
  "org.mail.invite.intro": "Je bent uitgenodigd voor {details}. Log in (of registreer je) met {email} om de uitnodiging aan te nemen.",
  "org.mail.invite.introText": "Je bent uitgenodigd voor {details}. Open deze link en log in (of registreer je) met {email} om de uitnodiging aan te nemen:",
  "org.mail.invite.button": "Uitnodiging aannemen",
  "org.mail.invite.valid": "De uitnodiging is {validFor} geldig (tot {expiresAt}) en werkt één keer. Verwachtte je haar niet? Dan kun je deze mail negeren.",
};
