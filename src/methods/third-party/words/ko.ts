import type { Translation } from "../../../words/catalogue.js";
import type { en } from "./en.js";

export const ko: Translation<typeof en> = {
  "thirdParty.js.continueWith": "{provider}(으)로 계속하기",
  "thirdParty.js.orEmail": "또는 이메일로",
  "thirdParty.js.failed": "로그인하지 못했습니다",
  "thirdParty.js.otherTab": "이 로그인은 이 브라우저 탭에서 시작되지 않았습니다. 처음부터 다시 시작하세요.",
  "thirdParty.js.providerRefused": "제공업체가 로그인을 거부했습니다({reason}).",
  "thirdParty.js.stateMismatch": "로그인 응답이 보낸 요청과 일치하지 않습니다. 처음부터 다시 시작하세요.",
  "thirdParty.js.refusal.elsewhere": "제공업체가 이 주소를 확인해 주지 않았고, 다른 계정에서 이미 이 주소를 사용하고 있습니다. 이전에 사용한 방법이나 이 주소로 보내 드리는 코드로 로그인하세요.",
  "thirdParty.callback.title": "로그인 중",
  "thirdParty.callback.progress": "로그인하는 중…",
  "thirdParty.login": "{provider}(으)로 로그인",
  "thirdParty.mail.subject": "로그인 방법 안내",
  "thirdParty.mail.intro": "누군가(본인이시길 바랍니다) {email} 계정의 비밀번호 재설정을 요청했습니다. 이 계정에는 비밀번호가 없으며 {provider}(으)로 로그인합니다. 로그인 페이지에서 ‘{provider}(으)로 계속하기’ 버튼을 사용하세요.",
  "thirdParty.mail.introText": "누군가(본인이시길 바랍니다) {email} 계정의 비밀번호 재설정을 요청했습니다. 이 계정에는 비밀번호가 없으며 {provider}(으)로 로그인합니다. 다음 페이지에서 ‘{provider}(으)로 계속하기’ 버튼을 사용하세요:",
  "thirdParty.mail.button": "{provider}(으)로 로그인",
};
