import type { Translation } from "../../words/catalogue.js";
import type { en } from "./en.js";

export const ar: Translation<typeof en> = {
  "secMail.subject": "تسجيل دخول جديد إلى حسابك",
  "secMail.intro": "سجّل أحدهم الدخول إلى حسابك ({email}) من جهاز أو شبكة لم نرها من قبل: {details}.",
  "secMail.ifYou": "إذا كنت أنت، فلا داعي لفعل أي شيء.",
  "secMail.ifNotText": "إذا لم تكن أنت، فافتح هذا الرابط: سيسجّل خروج حسابك من كل الأجهزة والتطبيقات دفعة واحدة ويطلب منك اختيار كلمة مرور جديدة.",
  "secMail.validText": "يعمل الرابط مرة واحدة فقط، لمدة {validFor}.",
  "secMail.button": "لم أكن أنا",
  "secMail.outro": "يسجّل الزر خروج حسابك من كل الأجهزة والتطبيقات دفعة واحدة ويطلب منك اختيار كلمة مرور جديدة. يعمل مرة واحدة فقط، لمدة {validFor}.",
  "secMail.details": "{when}، {device}",
  "secMail.browserOn": "{browser} على {os}",
  "secMail.aBrowserOn": "متصفح على {os}",
  "secMail.unknownBrowser": "متصفح غير معروف",
  "notMe.title": "لم أكن أنا",
  "notMe.ask.title": "هل سجّل شخص آخر الدخول؟",
  "notMe.ask.text": "سجّل خروج حسابك الآن من كل الأجهزة والتطبيقات، ثم اختر كلمة مرور جديدة حتى لا يتمكن من سجّل الدخول من العودة.",
  "notMe.ask.button": "تسجيل الخروج من كل مكان",
  "notMe.done.title": "تم تسجيل الخروج من كل مكان",
  "notMe.done.text": "تم تسجيل خروج كل الأجهزة والتطبيقات التي كانت مسجّلة الدخول إلى حسابك. اختر الآن كلمة مرور جديدة.",
  "notMe.done.reset": "اختيار كلمة مرور جديدة",
  "notMe.refused.title": "هذا الرابط لا يعمل",
  "notMe.refused.text": "سبق استخدامه أو انتهت صلاحيته. إذا كنت لا تزال تعتقد أن شخصًا آخر سجّل الدخول، فأعد تعيين كلمة المرور.",
  "notMe.js.busy": "جارٍ تسجيل الخروج من كل مكان…",
};
