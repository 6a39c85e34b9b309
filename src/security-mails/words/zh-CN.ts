import type { Translation } from "../../words/catalogue.js";
import type { en } from "./en.js";

export const zhCN: Translation<typeof en> = {
  "secMail.subject": "你的账号有一次新的登录",
  "secMail.intro": "有人从我们之前没见过的设备或网络登录了你的账号（{email}）：{details}。",
  "secMail.ifYou": "如果是你本人，无需任何操作。",
  "secMail.ifNotText": "如果不是你，请打开这个链接：它会让你的账号在所有设备和应用上立即退出登录，并请你设置新密码。",
  "secMail.validText": "该链接只能使用一次，{validFor}内有效。",
  "secMail.button": "不是我本人",
  "secMail.outro": "点击按钮会让你的账号在所有设备和应用上立即退出登录，并请你设置新密码。按钮只能使用一次，{validFor}内有效。",
  "secMail.details": "{when}，{device}",
  "secMail.browserOn": "{os} 上的 {browser}",
  "secMail.aBrowserOn": "{os} 上的浏览器",
  "secMail.unknownBrowser": "未知浏览器",
  "notMe.title": "不是我本人",
  "notMe.ask.title": "有其他人登录了你的账号？",
  "notMe.ask.text": "立即让你的账号在所有设备和应用上退出登录，然后设置新密码，让登录的人无法再次登录。",
  "notMe.ask.button": "全部退出登录",
  "notMe.done.title": "已全部退出登录",
  "notMe.done.text": "登录你账号的所有设备和应用都已退出登录。现在请设置新密码。",
  "notMe.done.reset": "设置新密码",
  "notMe.refused.title": "此链接无效",
  "notMe.refused.text": "它已被使用或已过期。如果你仍然认为有其他人登录，请重置密码。",
  "notMe.js.busy": "正在全部退出登录…",
};
