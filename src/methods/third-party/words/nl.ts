import type { Translation } from "../../../words/catalogue.js";
import type { en } from "./en.js";

export const nl: Translation<typeof en> = {
  "thirdParty.js.continueWith": "Doorgaan met {provider}",
  "thirdParty.js.orEmail": "of met je e-mailadres",
  "thirdParty.js.failed": "Inloggen mislukt",
  "thirdParty.js.otherTab": "Deze aanmelding is niet in dit browsertabblad begonnen. Begin opnieuw.",
  "thirdParty.js.providerRefused": "De provider heeft het inloggen geweigerd ({reason}).",
  "thirdParty.js.stateMismatch": "Het antwoord past niet bij het inlogverzoek dat we hebben verstuurd. Begin opnieuw.",
  "thirdParty.js.refusal.elsewhere": "Je provider bevestigt dit adres niet, en een ander account gebruikt het al. Log in zoals je eerder deed, of met een code die we naar het adres mailen.",
  "thirdParty.callback.title": "Inloggen",
  "thirdParty.callback.progress": "Je wordt ingelogd…",
  "thirdParty.login": "Inloggen met {provider}",
  "thirdParty.mail.subject": "Zo log je in",
  "thirdParty.mail.intro": "iemand (hopelijk jij) heeft gevraagd het wachtwoord van het account {email} opnieuw in te stellen. Dit account heeft geen wachtwoord: het logt in met {provider}. Gebruik de knop ‘Doorgaan met {provider}’ op de inlogpagina.",
  "thirdParty.mail.introText": "iemand (hopelijk jij) heeft gevraagd het wachtwoord van het account {email} opnieuw in te stellen. Dit account heeft geen wachtwoord: het logt in met {provider}. Gebruik de knop ‘Doorgaan met {provider}’ op deze pagina:",
  "thirdParty.mail.button": "Inloggen met {provider}",
};
