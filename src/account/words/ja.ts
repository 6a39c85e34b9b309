import type { Translation } from "../../words/catalogue.js";
import type { en } from "./en.js";

export const ja: Translation<typeof en> = {
  "account.locale.title": "メールの言語",
  "account.locale.label": "言語",
  "account.locale.save": "保存",
  "account.js.localeSaved": "保存しました。今後のメールはこの言語で届きます。",
  "account.js.supportSession": "{admin} によるサポートセッション",
};
