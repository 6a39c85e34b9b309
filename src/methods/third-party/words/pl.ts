import type { Translation } from "../../../words/catalogue.js";
import type { en } from "./en.js";

export const pl: Translation<typeof en> = {
  "thirdParty.js.continueWith": "Kontynuuj przez {provider}",
  "thirdParty.js.orEmail": "lub przez adres e-mail",
  "thirdParty.js.failed": "Logowanie nie powiodło się",
  "thirdParty.js.otherTab": "To logowanie nie zostało rozpoczęte w tej karcie przeglądarki. Zacznij od nowa.",
  "thirdParty.js.providerRefused": "Dostawca odrzucił logowanie ({reason}).",
  "thirdParty.js.stateMismatch": "Odpowiedź nie pasuje do wysłanej przez nas prośby o logowanie. Zacznij od nowa.",
  "thirdParty.js.refusal.elsewhere": "Twój dostawca nie potwierdza tego adresu, a inne konto już go używa. Zaloguj się tak jak poprzednio albo kodem, który wyślemy na ten adres.",
  "thirdParty.callback.title": "Logowanie",
  "thirdParty.callback.progress": "Logowanie…",
  "thirdParty.login": "Logowanie przez {provider}",
  "thirdParty.mail.subject": "Jak się logujesz",
  "thirdParty.mail.intro": "ktoś (miejmy nadzieję, że Ty) poprosił o zresetowanie hasła do konta {email}. To konto nie ma hasła: logujesz się na nie przez {provider}. Użyj przycisku „Kontynuuj przez {provider}” na stronie logowania.",
  "thirdParty.mail.introText": "ktoś (miejmy nadzieję, że Ty) poprosił o zresetowanie hasła do konta {email}. To konto nie ma hasła: logujesz się na nie przez {provider}. Użyj przycisku „Kontynuuj przez {provider}” na tej stronie:",
  "thirdParty.mail.button": "Zaloguj się przez {provider}",
};
