import type { Translation } from "../../../words/catalogue.js";
import type { en } from "./en.js";

export const zhCN: Translation<typeof en> = {
  "passkey.js.signIn": "使用通行密钥登录",
  "passkey.js.create": "创建通行密钥",
  "passkey.js.orPassword": "或使用邮箱和密码",
  "passkey.js.orInstead": "或者不用密码，为上方的邮箱",
  "passkey.lost": "通行密钥丢失了？",
};
