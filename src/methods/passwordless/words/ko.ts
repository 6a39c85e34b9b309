import type { Translation } from "../../../words/catalogue.js";
import type { en } from "./en.js";

export const ko: Translation<typeof en> = {
  "code.js.or": "또는 비밀번호 없이",
  "code.js.emailCode": "로그인 코드를 메일로 받기",
  "code.js.emailLink": "로그인 링크를 메일로 받기",
};
