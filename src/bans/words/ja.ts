import type { Translation } from "../../words/catalogue.js";
import type { en } from "./en.js";

export const ja: Translation<typeof en> = {
  "bans.mail.subject": "アカウントが停止されました",
  "bans.mail.intro": "お客様のアカウント（{email}）は{details}利用停止になりました。サインインはできません。このアカウントでサインインしていたすべてのデバイスとアプリからサインアウトされています。",
  "bans.mail.button": "サポートに連絡",
  "bans.mail.outro": "お心当たりがない場合は、このメールに返信するか、サポートまでご連絡ください。",
  "bans.mail.outroText": "お心当たりがない場合は、このメールに返信するか、サポートまでご連絡ください：",
  "bans.mail.untilFurtherNotice": "追って通知があるまで",
  "bans.mail.until": "{until}まで",
  "bans.mail.withReason": "{when}（理由：{reason}）",
};
