import type { Translation } from "../../words/catalogue.js";
import type { en } from "./en.js";

export const fr: Translation<typeof en> = {
  "org.mail.invite.subject": "Votre invitation à rejoindre {details}",
  "org.mail.invite.intro": "Vous êtes invité à rejoindre {details}. Pour accepter, connectez-vous (ou créez un compte) avec {email}.",
  "org.mail.invite.introText": "Vous êtes invité à rejoindre {details}. Pour accepter, ouvrez ce lien et connectez-vous (ou créez un compte) avec {email} :",
  "org.mail.invite.button": "Accepter l’invitation",
  "org.mail.invite.valid": "L’invitation est valable {validFor} (jusqu’au {expiresAt}) et ne fonctionne qu’une fois. Si vous ne l’attendiez pas, ignorez cet e-mail.",
};
