import type { Translation } from "../../words/catalogue.js";
import type { en } from "./en.js";

export const ko: Translation<typeof en> = {
  "account.locale.title": "메일 언어",
  "account.locale.label": "언어",
  "account.locale.save": "저장",
  "account.js.localeSaved": "저장했습니다. 앞으로 메일은 이 언어로 보내 드립니다.",
  "account.js.supportSession": "{admin}의 지원 세션",
};
