import type { Translation } from "../../words/catalogue.js";
import type { en } from "./en.js";

export const ar: Translation<typeof en> = {
  "js.sso.signInWith": "تسجيل الدخول عبر SSO الخاص بـ{name}",
  "js.sso.offered": "يمكن للعناوين في النطاق {domain} تسجيل الدخول عبر الدخول الموحّد (SSO) الخاص بـ{name}.",
  "js.sso.required": "لا يمكن للعناوين في النطاق {domain} تسجيل الدخول إلا عبر الدخول الموحّد (SSO) الخاص بـ{name}.",
  "js.sso.going": "جارٍ نقلك إلى صفحة تسجيل الدخول لدى {name}…",
};
