import type { Translation } from "../../words/catalogue.js";
import type { en } from "./en.js";

export const es: Translation<typeof en> = {
  "org.mail.invite.subject": "Tu invitación para unirte a {details}",
  "org.mail.invite.intro": "Te invitaron a unirte a {details}. Para aceptar, inicia sesión (o regístrate) con {email}.",
  "org.mail.invite.introText": "Te invitaron a unirte a {details}. Para aceptar, abre este enlace e inicia sesión (o regístrate) con {email}:",
  "org.mail.invite.button": "Aceptar la invitación",
  "org.mail.invite.valid": "La invitación es válida durante {validFor} (hasta el {expiresAt}) y solo funciona una vez. Si no la esperabas, puedes ignorar este correo.",
};
