import type { Translation } from "../../words/catalogue.js";
import type { en } from "./en.js";

export const ja: Translation<typeof en> = {
  "org.mail.invite.subject": "{details} への招待",
  "org.mail.invite.intro": "{details} に招待されました。参加するには、{email} でサインイン（または新規登録）してください。",
  "org.mail.invite.introText": "{details} に招待されました。参加するには、次のリンクを開き、{email} でサインイン（または新規登録）してください：",
  "org.mail.invite.button": "招待を受ける",
  "org.mail.invite.valid": "招待の有効期間は{validFor}（{expiresAt}まで）で、一度だけ使用できます。お心当たりがない場合は、このメールを無視してください。",
};
