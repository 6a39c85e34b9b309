import type { Translation } from "../../words/catalogue.js";
import type { en } from "./en.js";

export const ko: Translation<typeof en> = {
  "bans.mail.subject": "계정이 정지되었습니다",
  "bans.mail.intro": "회원님의 계정({email})이 {details} 정지되었습니다. 로그인할 수 없으며, 이 계정으로 로그인되어 있던 모든 기기와 앱에서 로그아웃되었습니다.",
  "bans.mail.button": "고객지원에 문의",
  "bans.mail.outro": "착오라고 생각되시면 이 메일에 회신하거나 고객지원에 문의하세요.",
  "bans.mail.outroText": "착오라고 생각되시면 이 메일에 회신하거나 고객지원에 문의하세요:",
  "bans.mail.untilFurtherNotice": "별도 안내가 있을 때까지",
  "bans.mail.until": "{until}까지",
  "bans.mail.withReason": "{when}(사유: {reason})",
};
