import type { Translation } from "../../../words/catalogue.js";
import type { en } from "./en.js";

export const ptBR: Translation<typeof en> = {
  "thirdParty.js.continueWith": "Continuar com {provider}",
  "thirdParty.js.orEmail": "ou com seu e-mail",
  "thirdParty.js.failed": "Não foi possível entrar",
  "thirdParty.js.otherTab": "Esta entrada não foi iniciada nesta aba do navegador. Comece de novo.",
  "thirdParty.js.providerRefused": "O provedor recusou a entrada ({reason}).",
  "thirdParty.js.stateMismatch": "A resposta não corresponde ao pedido de entrada que enviamos. Comece de novo.",
  "thirdParty.js.refusal.elsewhere": "Seu provedor não confirma este endereço, e outra conta já o usa. Entre como fez da última vez ou com um código que enviamos para o endereço.",
  "thirdParty.callback.title": "Entrando",
  "thirdParty.callback.progress": "Entrando…",
  "thirdParty.login": "Entrar com {provider}",
  "thirdParty.mail.subject": "Como você entra",
  "thirdParty.mail.intro": "alguém (esperamos que você) pediu para redefinir a senha da conta {email}. Esta conta não tem senha: ela entra com {provider}. Use o botão “Continuar com {provider}” na página de entrada.",
  "thirdParty.mail.introText": "alguém (esperamos que você) pediu para redefinir a senha da conta {email}. Esta conta não tem senha: ela entra com {provider}. Use o botão “Continuar com {provider}” nesta página:",
  "thirdParty.mail.button": "Entrar com {provider}",
};
