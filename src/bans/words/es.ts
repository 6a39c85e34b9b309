import type { Translation } from "../../words/catalogue.js";
import type { en } from "./en.js";

export const es: Translation<typeof en> = {
  "bans.mail.subject": "Tu cuenta ha sido suspendida",
  "bans.mail.intro": "Tu cuenta ({email}) ha sido suspendida {details}. No puedes iniciar sesión, y se ha cerrado la sesión en todos los dispositivos y aplicaciones que la usaban.",
  "bans.mail.button": "Contactar con soporte",
  "bans.mail.outro": "Si crees que se trata de un error, responde a este correo o contacta con soporte.",
  "bans.mail.outroText": "Si crees que se trata de un error, responde a este correo o contacta con soporte:",
  "bans.mail.untilFurtherNotice": "hasta nuevo aviso",
  "bans.mail.until": "hasta el {until}",
  "bans.mail.withReason": "{when} (motivo: {reason})",
};
