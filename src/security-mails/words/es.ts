import type { Translation } from "../../words/catalogue.js";
import type { en } from "./en.js";

export const es: Translation<typeof en> = {
  "secMail.subject": "Nuevo inicio de sesión en tu cuenta",
  "secMail.intro": "Alguien inició sesión en tu cuenta ({email}) desde un dispositivo o una red que no conocíamos: {details}.",
  "secMail.ifYou": "Si fuiste tú, no tienes que hacer nada.",
  "secMail.ifNotText": "Si no fuiste tú, abre este enlace: cierra la sesión de tu cuenta en todos los dispositivos y aplicaciones a la vez y te pide que elijas una contraseña nueva.",
  "secMail.validText": "El enlace funciona una sola vez, durante {validFor}.",
  "secMail.button": "No fui yo",
  "secMail.outro": "El botón cierra la sesión de tu cuenta en todos los dispositivos y aplicaciones a la vez y te pide que elijas una contraseña nueva. Funciona una sola vez, durante {validFor}.",
  "secMail.details": "{when}, {device}",
  "secMail.browserOn": "{browser} en {os}",
  "secMail.aBrowserOn": "un navegador en {os}",
  "secMail.unknownBrowser": "un navegador desconocido",
  "notMe.title": "No fui yo",
  "notMe.ask.title": "¿Otra persona inició sesión?",
  "notMe.ask.text": "Cierra ahora la sesión de tu cuenta en todos los dispositivos y aplicaciones. Luego elige una contraseña nueva, para que quien haya entrado no pueda volver a hacerlo.",
  "notMe.ask.button": "Cerrar sesión en todo",
  "notMe.done.title": "Se cerró la sesión en todo",
  "notMe.done.text": "Se cerró la sesión en todos los dispositivos y aplicaciones que usaban tu cuenta. Ahora elige una contraseña nueva.",
  "notMe.done.reset": "Elegir una contraseña nueva",
  "notMe.refused.title": "Este enlace no funciona",
  "notMe.refused.text": "Ya se usó o ha caducado. Si sigues pensando que otra persona inició sesión, restablece tu contraseña.",
  "notMe.js.busy": "Cerrando la sesión en todo…",
};
