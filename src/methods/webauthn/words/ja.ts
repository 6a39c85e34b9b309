import type { Translation } from "../../../words/catalogue.js";
import type { en } from "./en.js";

export const ja: Translation<typeof en> = {
  "passkey.js.signIn": "パスキーでサインイン",
  "passkey.js.create": "パスキーを作成",
  "passkey.js.orPassword": "またはメールアドレスとパスワードで",
  "passkey.js.orInstead": "またはパスワードの代わりに、上のアドレスで",
  "passkey.lost": "パスキーをなくしましたか？",
};
