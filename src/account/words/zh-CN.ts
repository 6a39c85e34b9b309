import type { Translation } from "../../words/catalogue.js";
import type { en } from "./en.js";

export const zhCN: Translation<typeof en> = {
  "account.locale.title": "邮件语言",
  "account.locale.label": "语言",
  "account.locale.save": "保存",
  "account.js.localeSaved": "已保存：今后的邮件将使用此语言。",
  "account.js.supportSession": "{admin} 的支持会话",
};
