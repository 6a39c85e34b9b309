import type { Translation } from "../../words/catalogue.js";
import type { en } from "./en.js";

export const nl: Translation<typeof en> = {
  "secMail.subject": "Nieuwe aanmelding bij je account",
  "secMail.intro": "Iemand is ingelogd op je account ({email}) vanaf een apparaat of netwerk dat we nog niet kenden: {details}.",
  "secMail.ifYou": "Was jij dit? Dan hoef je niets te doen.",
  "secMail.ifNotText": "Was jij het niet? Open dan deze link: die logt alle apparaten en apps in één keer uit je account en vraagt je een nieuw wachtwoord te kiezen.",
  "secMail.validText": "De link werkt één keer, {validFor} lang.",
  "secMail.button": "Dit was ik niet",
  "secMail.outro": "De knop logt alle apparaten en apps in één keer uit je account en vraagt je een nieuw wachtwoord te kiezen. Hij werkt één keer, {validFor} lang.",
  "secMail.details": "{when}, {device}",
  "secMail.browserOn": "{browser} op {os}",
  "secMail.aBrowserOn": "een browser op {os}",
  "secMail.unknownBrowser": "een onbekende browser",
  "notMe.title": "Dit was ik niet",
  "notMe.ask.title": "Heeft iemand anders ingelogd?",
  "notMe.ask.text": "Log nu alle apparaten en apps uit je account. Kies daarna een nieuw wachtwoord, zodat wie er heeft ingelogd dat niet nog eens kan.",
  "notMe.ask.button": "Overal uitloggen",
  "notMe.done.title": "Overal uitgelogd",
  "notMe.done.text": "Alle apparaten en apps die op je account waren ingelogd, zijn uitgelogd. Kies nu een nieuw wachtwoord.",
  "notMe.done.reset": "Nieuw wachtwoord kiezen",
  "notMe.refused.title": "Deze link werkt niet",
  "notMe.refused.text": "Hij is al gebruikt of verlopen. Denk je nog steeds dat iemand anders heeft ingelogd? Stel dan je wachtwoord opnieuw in.",
  "notMe.js.busy": "Overal uitloggen…",
};
