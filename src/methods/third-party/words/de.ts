import type { Translation } from "../../../words/catalogue.js";
import type { en } from "./en.js";

export const de: Translation<typeof en> = {
  "thirdParty.js.continueWith": "Weiter mit {provider}",
  "thirdParty.js.orEmail": "oder mit deiner E-Mail-Adresse",
  "thirdParty.js.failed": "Anmeldung fehlgeschlagen",
  "thirdParty.js.otherTab": "Diese Anmeldung wurde nicht in diesem Browser-Tab begonnen. Bitte fang noch einmal an.",
  "thirdParty.js.providerRefused": "Der Anbieter hat die Anmeldung abgelehnt ({reason}).",
  "thirdParty.js.stateMismatch": "Die Antwort passt nicht zu unserer Anmeldeanfrage. Bitte fang noch einmal an.",
  "thirdParty.js.refusal.elsewhere": "Dein Anbieter bestätigt diese Adresse nicht, und ein anderes Konto nutzt sie schon. Melde dich so an wie beim letzten Mal oder mit einem Code, den wir an die Adresse mailen.",
  "thirdParty.callback.title": "Anmeldung",
  "thirdParty.callback.progress": "Du wirst angemeldet …",
  "thirdParty.login": "Anmeldung mit {provider}",
  "thirdParty.mail.subject": "So meldest du dich an",
  "thirdParty.mail.intro": "jemand (hoffentlich du) hat angefordert, das Passwort des Kontos {email} zurückzusetzen. Dieses Konto hat kein Passwort: Es meldet sich mit {provider} an. Nutze auf der Anmeldeseite den Button „Weiter mit {provider}“.",
  "thirdParty.mail.introText": "jemand (hoffentlich du) hat angefordert, das Passwort des Kontos {email} zurückzusetzen. Dieses Konto hat kein Passwort: Es meldet sich mit {provider} an. Nutze den Button „Weiter mit {provider}“ auf dieser Seite:",
  "thirdParty.mail.button": "Mit {provider} anmelden",
};
