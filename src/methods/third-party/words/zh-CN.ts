import type { Translation } from "../../../words/catalogue.js";
import type { en } from "./en.js";

export const zhCN: Translation<typeof en> = {
  "thirdParty.js.continueWith": "通过 {provider} 继续",
  "thirdParty.js.orEmail": "或使用邮箱",
  "thirdParty.js.failed": "登录失败",
  "thirdParty.js.otherTab": "此次登录不是在这个浏览器标签页中发起的。请重新开始。",
  "thirdParty.js.providerRefused": "提供方拒绝了此次登录（{reason}）。",
  "thirdParty.js.stateMismatch": "登录响应与我们发出的请求不符。请重新开始。",
  "thirdParty.js.refusal.elsewhere": "你的身份提供方未确认这个地址，而另一个账户已在使用它。请用之前的方式登录，或使用我们发送到该地址的验证码登录。",
  "thirdParty.callback.title": "正在登录",
  "thirdParty.callback.progress": "正在为你登录…",
  "thirdParty.login": "使用 {provider} 登录",
  "thirdParty.mail.subject": "你的登录方式",
  "thirdParty.mail.intro": "有人（希望是你本人）请求重置账户 {email} 的密码。这个账户没有密码：它通过 {provider} 登录。请在登录页面使用“通过 {provider} 继续”按钮。",
  "thirdParty.mail.introText": "有人（希望是你本人）请求重置账户 {email} 的密码。这个账户没有密码：它通过 {provider} 登录。请在这个页面使用“通过 {provider} 继续”按钮：",
  "thirdParty.mail.button": "使用 {provider} 登录",
};
