import type { Translation } from "../../../words/catalogue.js";
import type { en } from "./en.js";

export const it: Translation<typeof en> = {
  "thirdParty.js.continueWith": "Continua con {provider}",
  "thirdParty.js.orEmail": "oppure con la tua email",
  "thirdParty.js.failed": "Accesso non riuscito",
  "thirdParty.js.otherTab": "Questo accesso non è stato avviato da questa scheda del browser. Ricomincia da capo.",
  "thirdParty.js.providerRefused": "Il provider ha rifiutato l’accesso ({reason}).",
  "thirdParty.js.stateMismatch": "La risposta non corrisponde alla richiesta di accesso che abbiamo inviato. Ricomincia da capo.",
  "thirdParty.js.refusal.elsewhere": "Il tuo provider non conferma questo indirizzo e un altro account lo usa già. Accedi come l’ultima volta oppure con un codice che inviamo all’indirizzo.",
  "thirdParty.callback.title": "Accesso",
  "thirdParty.callback.progress": "Accesso in corso…",
  "thirdParty.login": "Accesso con {provider}",
  "thirdParty.mail.subject": "Come accedi",
  "thirdParty.mail.intro": "qualcuno (speriamo tu) ha chiesto di reimpostare la password dell’account {email}. Questo account non ha una password: accede con {provider}. Usa il pulsante “Continua con {provider}” nella pagina di accesso.",
  "thirdParty.mail.introText": "qualcuno (speriamo tu) ha chiesto di reimpostare la password dell’account {email}. Questo account non ha una password: accede con {provider}. Usa il pulsante “Continua con {provider}” in questa pagina:",
  "thirdParty.mail.button": "Accedi con {provider}",
};
