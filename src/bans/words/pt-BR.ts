import type { Translation } from "../../words/catalogue.js";
import type { en } from "./en.js";

export const ptBR: Translation<typeof en> = {
  "bans.mail.subject": "Sua conta foi suspensa",
  "bans.mail.intro": "Sua conta ({email}) foi suspensa {details}. Você não pode entrar, e todos os dispositivos e apps conectados com ela foram desconectados.",
  "bans.mail.button": "Falar com o suporte",
  "bans.mail.outro": "Se você acha que isso é um engano, responda a este e-mail ou fale com o suporte.",
  "bans.mail.outroText": "Se você acha que isso é um engano, responda a este e-mail ou fale com o suporte:",
  "bans.mail.untilFurtherNotice": "até segunda ordem",
  "bans.mail.until": "até {until}",
  "bans.mail.withReason": "{when} (motivo: {reason})",
};
