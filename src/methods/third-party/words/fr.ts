import type { Translation } from "../../../words/catalogue.js";
import type { en } from "./en.js";

export const fr: Translation<typeof en> = {
  "thirdParty.js.continueWith": "Continuer avec {provider}",
  "thirdParty.js.orEmail": "ou avec votre adresse e-mail",
  "thirdParty.js.failed": "Échec de la connexion",
  "thirdParty.js.otherTab": "Cette connexion n’a pas été lancée depuis cet onglet. Veuillez recommencer.",
  "thirdParty.js.providerRefused": "Le fournisseur a refusé la connexion ({reason}).",
  "thirdParty.js.stateMismatch": "La réponse ne correspond pas à la demande de connexion que nous avons envoyée. Veuillez recommencer.",
  "thirdParty.js.refusal.elsewhere": "Votre fournisseur ne confirme pas cette adresse, et un autre compte l’utilise déjà. Connectez-vous comme la dernière fois, ou avec un code que nous envoyons à l’adresse.",
  "thirdParty.callback.title": "Connexion",
  "thirdParty.callback.progress": "Connexion en cours…",
  "thirdParty.login": "Connexion avec {provider}",
  "thirdParty.mail.subject": "Comment vous connecter",
  "thirdParty.mail.intro": "quelqu’un (vous, nous l’espérons) a demandé à réinitialiser le mot de passe du compte {email}. Ce compte n’a pas de mot de passe : il se connecte avec {provider}. Utilisez le bouton « Continuer avec {provider} » de la page de connexion.",
  "thirdParty.mail.introText": "quelqu’un (vous, nous l’espérons) a demandé à réinitialiser le mot de passe du compte {email}. Ce compte n’a pas de mot de passe : il se connecte avec {provider}. Utilisez le bouton « Continuer avec {provider} » sur cette page :",
  "thirdParty.mail.button": "Se connecter avec {provider}",
};
