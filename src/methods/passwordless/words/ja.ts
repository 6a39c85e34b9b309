import type { Translation } from "../../../words/catalogue.js";
import type { en } from "./en.js";

export const ja: Translation<typeof en> = {
  "code.js.or": "またはパスワードなしで",
  "code.js.emailCode": "サインインコードをメールで受け取る",
  "code.js.emailLink": "サインインリンクをメールで受け取る",
};
