import type { Translation } from "../../words/catalogue.js";
import type { en } from "./en.js";

export const it: Translation<typeof en> = {
  "secMail.subject": "Nuovo accesso al tuo account",
  "secMail.intro": "qualcuno ha effettuato l’accesso al tuo account ({email}) da un dispositivo o una rete che non conoscevamo: {details}.",
  "secMail.ifYou": "Se sei stato tu, non devi fare nulla.",
  "secMail.ifNotText": "Se non sei stato tu, apri questo link: disconnette in un colpo solo tutti i dispositivi e le app dal tuo account e ti chiede di scegliere una nuova password.",
  "secMail.validText": "Il link funziona una sola volta, per {validFor}.",
  "secMail.button": "Non sono stato io",
  "secMail.outro": "Il pulsante disconnette in un colpo solo tutti i dispositivi e le app dal tuo account e ti chiede di scegliere una nuova password. Funziona una sola volta, per {validFor}.",
  "secMail.details": "{when}, {device}",
  "secMail.browserOn": "{browser} su {os}",
  "secMail.aBrowserOn": "un browser su {os}",
  "secMail.unknownBrowser": "un browser sconosciuto",
  "notMe.title": "Non sono stato io",
  "notMe.ask.title": "Qualcun altro ha effettuato l’accesso?",
  "notMe.ask.text": "Disconnetti subito tutti i dispositivi e le app dal tuo account. Poi scegli una nuova password, così chi è entrato non potrà farlo di nuovo.",
  "notMe.ask.button": "Disconnetti tutto",
  "notMe.done.title": "Tutto è stato disconnesso",
  "notMe.done.text": "Tutti i dispositivi e le app collegati al tuo account sono stati disconnessi. Ora scegli una nuova password.",
  "notMe.done.reset": "Scegli una nuova password",
  "notMe.refused.title": "Questo link non funziona",
  "notMe.refused.text": "È già stato usato o è scaduto. Se pensi ancora che qualcun altro abbia effettuato l’accesso, reimposta la password.",
  "notMe.js.busy": "Disconnessione in corso…",
};
