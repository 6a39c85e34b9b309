import type { Translation } from "../../words/catalogue.js";
import type { en } from "./en.js";

export const ja: Translation<typeof en> = {
  "js.sso.signInWith": "{name} の SSO でサインイン",
  "js.sso.offered": "{domain} のアドレスは {name} のシングルサインオン (SSO) でサインインできます。",
  "js.sso.required": "{domain} のアドレスは {name} のシングルサインオン (SSO) でのみサインインできます。",
  "js.sso.going": "{name} のサインイン画面に移動しています…",
};
