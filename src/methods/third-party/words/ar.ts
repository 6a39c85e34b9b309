import type { Translation } from "../../../words/catalogue.js";
import type { en } from "./en.js";

export const ar: Translation<typeof en> = {
  "thirdParty.js.continueWith": "المتابعة باستخدام {provider}",
  "thirdParty.js.orEmail": "أو باستخدام بريدك الإلكتروني",
  "thirdParty.js.failed": "تعذّر تسجيل الدخول",
  "thirdParty.js.otherTab": "لم يبدأ تسجيل الدخول هذا من علامة التبويب هذه. ابدأ من جديد.",
  "thirdParty.js.providerRefused": "رفض المزوّد تسجيل الدخول ({reason}).",
  "thirdParty.js.stateMismatch": "لا يطابق رد تسجيل الدخول الطلب الذي أرسلناه. ابدأ من جديد.",
  "thirdParty.js.refusal.elsewhere": "لا يؤكّد مزوّدك هذا العنوان، ويستخدمه حساب آخر بالفعل. سجّل الدخول بالطريقة التي استخدمتها من قبل، أو برمز نرسله إلى العنوان بالبريد.",
  "thirdParty.callback.title": "جارٍ تسجيل الدخول",
  "thirdParty.callback.progress": "جارٍ تسجيل دخولك…",
  "thirdParty.login": "تسجيل الدخول باستخدام {provider}",
  "thirdParty.mail.subject": "طريقة تسجيل دخولك",
  "thirdParty.mail.intro": "طلب أحدهم (نأمل أن تكون أنت) إعادة تعيين كلمة مرور الحساب {email}. لا توجد كلمة مرور لهذا الحساب: فهو يسجّل الدخول باستخدام {provider}. استخدم زر «المتابعة باستخدام {provider}» في صفحة تسجيل الدخول.",
  "thirdParty.mail.introText": "طلب أحدهم (نأمل أن تكون أنت) إعادة تعيين كلمة مرور الحساب {email}. لا توجد كلمة مرور لهذا الحساب: فهو يسجّل الدخول باستخدام {provider}. استخدم زر «المتابعة باستخدام {provider}» في هذه الصفحة:",
  "thirdParty.mail.button": "تسجيل الدخول باستخدام {provider}",
};
