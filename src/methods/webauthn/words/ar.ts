import type { Translation } from "../../../words/catalogue.js";
import type { en } from "./en.js";

export const ar: Translation<typeof en> = {
  "passkey.js.signIn": "تسجيل الدخول بمفتاح مرور",
  "passkey.js.create": "أنشئ مفتاح مرور",
  "passkey.js.orPassword": "أو باستخدام بريدك الإلكتروني وكلمة المرور",
  "passkey.js.orInstead": "أو بدلًا من كلمة المرور، للعنوان أعلاه",
  "passkey.lost": "فقدت مفتاح المرور؟",
};
