import type { Translation } from "../../../words/catalogue.js";
import type { en } from "./en.js";

export const ko: Translation<typeof en> = {
  "passkey.js.signIn": "패스키로 로그인",
  "passkey.js.create": "패스키 만들기",
  "passkey.js.orPassword": "또는 이메일과 비밀번호로",
  "passkey.js.orInstead": "또는 비밀번호 대신 위 주소로",
  "passkey.lost": "패스키를 잃어버리셨나요?",
};
