import type { Translation } from "../../../words/catalogue.js";
import type { en } from "./en.js";

export const ar: Translation<typeof en> = {
  "code.js.or": "أو بدون كلمة مرور",
  "code.js.emailCode": "أرسل لي رمز تسجيل الدخول",
  "code.js.emailLink": "أرسل لي رابط تسجيل الدخول",
};
