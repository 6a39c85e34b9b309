import type { Translation } from "../../words/catalogue.js";
import type { en } from "./en.js";

export const ko: Translation<typeof en> = {
  "org.mail.invite.subject": "{details} 초대장",
  "org.mail.invite.intro": "{details}에 초대되었습니다. 수락하려면 {email}(으)로 로그인하거나 회원가입하세요.",
  "org.mail.invite.introText": "{details}에 초대되었습니다. 수락하려면 아래 링크를 열고 {email}(으)로 로그인하거나 회원가입하세요:",
  "org.mail.invite.button": "초대 수락하기",
  "org.mail.invite.valid": "초대는 {validFor} 동안({expiresAt}까지) 유효하며 한 번만 사용할 수 있습니다. 예상하지 못한 초대라면 이 메일을 무시하셔도 됩니다.",
};
