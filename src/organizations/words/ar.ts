import type { Translation } from "../../words/catalogue.js";
import type { en } from "./en.js";

export const ar: Translation<typeof en> = {
  "org.mail.invite.subject": "دعوتك للانضمام إلى {details}",
  "org.mail.invite.intro": "أنت مدعو للانضمام إلى {details}. لقبول الدعوة، سجّل الدخول (أو أنشئ حسابًا) باستخدام {email}.",
  "org.mail.invite.introText": "أنت مدعو للانضمام إلى {details}. لقبول الدعوة، افتح هذا الرابط وسجّل الدخول (أو أنشئ حسابًا) باستخدام {email}:",
  "org.mail.invite.button": "اقبل الدعوة",
  "org.mail.invite.valid": "الدعوة صالحة لمدة {validFor} (حتى {expiresAt}) وتعمل مرة واحدة فقط. إذا لم تكن تتوقعها، يمكنك تجاهل هذه الرسالة.",
};
