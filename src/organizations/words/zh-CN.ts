import type { Translation } from "../../words/catalogue.js";
import type { en } from "./en.js";

export const zhCN: Translation<typeof en> = {
  "org.mail.invite.subject": "邀请你加入 {details}",
  "org.mail.invite.intro": "你受邀加入 {details}。如要接受，请使用 {email} 登录（或注册）。",
  "org.mail.invite.introText": "你受邀加入 {details}。如要接受，请打开以下链接，并使用 {email} 登录（或注册）：",
  "org.mail.invite.button": "接受邀请",
  "org.mail.invite.valid": "邀请有效期为 {validFor}（至 {expiresAt}），且只能使用一次。如果你没有预料到这封邀请，请忽略此邮件。",
};
