import type { Translation } from "../../words/catalogue.js";
import type { en } from "./en.js";

export const ptBR: Translation<typeof en> = {
  "secMail.subject": "Novo acesso à sua conta",
  "secMail.intro": "Alguém entrou na sua conta ({email}) por um dispositivo ou uma rede que ainda não conhecíamos: {details}.",
  "secMail.ifYou": "Se foi você, não precisa fazer nada.",
  "secMail.ifNotText": "Se não foi você, abra este link: ele desconecta todos os dispositivos e apps da sua conta de uma vez e pede que você escolha uma nova senha.",
  "secMail.validText": "O link funciona uma única vez, por {validFor}.",
  "secMail.button": "Não fui eu",
  "secMail.outro": "O botão desconecta todos os dispositivos e apps da sua conta de uma vez e pede que você escolha uma nova senha. Ele funciona uma única vez, por {validFor}.",
  "secMail.details": "{when}, {device}",
  "secMail.browserOn": "{browser} no {os}",
  "secMail.aBrowserOn": "um navegador no {os}",
  "secMail.unknownBrowser": "um navegador desconhecido",
  "notMe.title": "Não fui eu",
  "notMe.ask.title": "Outra pessoa entrou na sua conta?",
  "notMe.ask.text": "Desconecte agora todos os dispositivos e apps da sua conta. Depois escolha uma nova senha, para que quem entrou não consiga entrar de novo.",
  "notMe.ask.button": "Desconectar tudo",
  "notMe.done.title": "Tudo foi desconectado",
  "notMe.done.text": "Todos os dispositivos e apps conectados à sua conta foram desconectados. Agora escolha uma nova senha.",
  "notMe.done.reset": "Escolher uma nova senha",
  "notMe.refused.title": "Este link não funciona",
  "notMe.refused.text": "Ele já foi usado ou expirou. Se você ainda acha que outra pessoa entrou, redefina sua senha.",
  "notMe.js.busy": "Desconectando tudo…",
};
