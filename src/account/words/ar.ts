import type { Translation } from "../../words/catalogue.js";
import type { en } from "./en.js";

export const ar: Translation<typeof en> = {
  "account.locale.title": "لغة رسائلك",
  "account.locale.label": "اللغة",
  "account.locale.save": "حفظ",
  "account.js.localeSaved": "تم الحفظ: ستصلك الرسائل بهذه اللغة.",
  "account.js.supportSession": "جلسة دعم من {admin}",
};
