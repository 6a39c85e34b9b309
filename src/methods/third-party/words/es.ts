import type { Translation } from "../../../words/catalogue.js";
import type { en } from "./en.js";

export const es: Translation<typeof en> = {
  "thirdParty.js.continueWith": "Continuar con {provider}",
  "thirdParty.js.orEmail": "o con tu correo",
  "thirdParty.js.failed": "No se pudo iniciar sesión",
  "thirdParty.js.otherTab": "Este inicio de sesión no empezó en esta pestaña del navegador. Empieza de nuevo.",
  "thirdParty.js.providerRefused": "El proveedor rechazó el inicio de sesión ({reason}).",
  "thirdParty.js.stateMismatch": "La respuesta no coincide con la solicitud de inicio de sesión que enviamos. Empieza de nuevo.",
  "thirdParty.js.refusal.elsewhere": "Tu proveedor no confirma esta dirección y otra cuenta ya la usa. Inicia sesión como lo hiciste la última vez o con un código que enviamos a la dirección.",
  "thirdParty.callback.title": "Inicio de sesión",
  "thirdParty.callback.progress": "Iniciando sesión…",
  "thirdParty.login": "Inicio de sesión con {provider}",
  "thirdParty.mail.subject": "Cómo iniciar sesión",
  "thirdParty.mail.intro": "alguien (esperamos que tú) pidió restablecer la contraseña de la cuenta {email}. Esta cuenta no tiene contraseña: inicia sesión con {provider}. Usa el botón «Continuar con {provider}» de la página de inicio de sesión.",
  "thirdParty.mail.introText": "alguien (esperamos que tú) pidió restablecer la contraseña de la cuenta {email}. Esta cuenta no tiene contraseña: inicia sesión con {provider}. Usa el botón «Continuar con {provider}» en esta página:",
  "thirdParty.mail.button": "Iniciar sesión con {provider}",
};
