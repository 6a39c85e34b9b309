import type { Translation } from "../../words/catalogue.js";
import type { en } from "./en.js";

export const ko: Translation<typeof en> = {
  "secMail.subject": "계정에 새로운 로그인이 있습니다",
  "secMail.intro": "이전에 본 적 없는 기기 또는 네트워크에서 회원님의 계정({email})에 로그인했습니다: {details}.",
  "secMail.ifYou": "본인이 로그인한 것이라면 아무것도 하지 않으셔도 됩니다.",
  "secMail.ifNotText": "본인이 아니라면 이 링크를 여세요. 계정에 로그인된 모든 기기와 앱에서 한 번에 로그아웃하고 새 비밀번호를 설정하도록 안내합니다.",
  "secMail.validText": "이 링크는 {validFor} 동안 한 번만 사용할 수 있습니다.",
  "secMail.button": "본인이 아닙니다",
  "secMail.outro": "버튼을 누르면 계정에 로그인된 모든 기기와 앱에서 한 번에 로그아웃하고 새 비밀번호를 설정하도록 안내합니다. {validFor} 동안 한 번만 사용할 수 있습니다.",
  "secMail.details": "{when}, {device}",
  "secMail.browserOn": "{os}의 {browser}",
  "secMail.aBrowserOn": "{os}의 브라우저",
  "secMail.unknownBrowser": "알 수 없는 브라우저",
  "notMe.title": "본인이 아닙니다",
  "notMe.ask.title": "다른 사람이 로그인했나요?",
  "notMe.ask.text": "지금 계정에 로그인된 모든 기기와 앱에서 로그아웃하세요. 그런 다음 새 비밀번호를 설정하면 로그인한 사람이 다시 들어올 수 없습니다.",
  "notMe.ask.button": "모두 로그아웃",
  "notMe.done.title": "모두 로그아웃되었습니다",
  "notMe.done.text": "계정에 로그인되어 있던 모든 기기와 앱에서 로그아웃되었습니다. 이제 새 비밀번호를 설정하세요.",
  "notMe.done.reset": "새 비밀번호 설정",
  "notMe.refused.title": "이 링크는 사용할 수 없습니다",
  "notMe.refused.text": "이미 사용되었거나 만료되었습니다. 그래도 다른 사람이 로그인했다고 생각되면 비밀번호를 재설정하세요.",
  "notMe.js.busy": "모두 로그아웃하는 중…",
};
