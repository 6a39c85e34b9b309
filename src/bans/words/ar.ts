import type { Translation } from "../../words/catalogue.js";
import type { en } from "./en.js";

export const ar: Translation<typeof en> = {
  "bans.mail.subject": "تم تعليق حسابك",
  "bans.mail.intro": "تم تعليق حسابك ({email}) {details}. لا يمكنك تسجيل الدخول، وتم تسجيل الخروج من كل الأجهزة والتطبيقات التي كانت مسجّلة الدخول به.",
  "bans.mail.button": "تواصل مع الدعم",
  "bans.mail.outro": "إذا كنت تعتقد أن هذا خطأ، فردّ على هذه الرسالة أو تواصل مع الدعم.",
  "bans.mail.outroText": "إذا كنت تعتقد أن هذا خطأ، فردّ على هذه الرسالة أو تواصل مع الدعم:",
  "bans.mail.untilFurtherNotice": "حتى إشعار آخر",
  "bans.mail.until": "حتى {until}",
  "bans.mail.withReason": "{when} (السبب: {reason})",
};
