import type { Translation } from "../../words/catalogue.js";
import type { en } from "./en.js";

export const ptBR: Translation<typeof en> = {
  "org.mail.invite.subject": "Seu convite para entrar em {details}",
  "org.mail.invite.intro": "Você foi convidado para entrar em {details}. Para aceitar, entre (ou crie uma conta) com {email}.",
  "org.mail.invite.introText": "Você foi convidado para entrar em {details}. Para aceitar, abra este link e entre (ou crie uma conta) com {email}:",
  "org.mail.invite.button": "Aceitar o convite",
  "org.mail.invite.valid": "O convite vale por {validFor} (até {expiresAt}) e funciona uma única vez. Se você não esperava por ele, pode ignorar este e-mail.",
};
