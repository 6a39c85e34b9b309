import type { Translation } from "../../../words/catalogue.js";
import type { en } from "./en.js";

export const zhCN: Translation<typeof en> = {
  "code.js.or": "或无需密码",
  "code.js.emailCode": "通过邮件发送登录验证码",
  "code.js.emailLink": "通过邮件发送登录链接",
};
