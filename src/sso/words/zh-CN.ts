import type { Translation } from "../../words/catalogue.js";
import type { en } from "./en.js";

export const zhCN: Translation<typeof en> = {
  "js.sso.signInWith": "使用 {name} SSO 登录",
  "js.sso.offered": "{domain} 域名下的地址可以通过 {name} 的单点登录（SSO）登录。",
  "js.sso.required": "{domain} 域名下的地址只能通过 {name} 的单点登录（SSO）登录。",
  "js.sso.going": "正在前往 {name} 的登录页面…",
};
