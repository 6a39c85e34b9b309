import type { Translation } from "../../words/catalogue.js";
import type { en } from "./en.js";

export const ko: Translation<typeof en> = {
  "js.sso.signInWith": "{name} SSO로 로그인",
  "js.sso.offered": "{domain} 주소는 {name}의 싱글 사인온(SSO)으로 로그인할 수 있습니다.",
  "js.sso.required": "{domain} 주소는 {name}의 싱글 사인온(SSO)으로만 로그인할 수 있습니다.",
  "js.sso.going": "{name} 로그인 페이지로 이동하는 중…",
};
