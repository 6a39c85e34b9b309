import type { Translation } from "../../words/catalogue.js";
import type { en } from "./en.js";

export const zhCN: Translation<typeof en> = {
  "bans.mail.subject": "你的账号已被停用",
  "bans.mail.intro": "你的账号（{email}）已被停用，{details}。你无法登录，所有用该账号登录的设备和应用都已退出登录。",
  "bans.mail.button": "联系客服",
  "bans.mail.outro": "如果你认为这是误操作，请回复此邮件或联系客服。",
  "bans.mail.outroText": "如果你认为这是误操作，请回复此邮件或联系客服：",
  "bans.mail.untilFurtherNotice": "另行通知前不会恢复",
  "bans.mail.until": "至 {until} 为止",
  "bans.mail.withReason": "{when}（原因：{reason}）",
};
