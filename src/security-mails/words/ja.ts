import type { Translation } from "../../words/catalogue.js";
import type { en } from "./en.js";

export const ja: Translation<typeof en> = {
  "secMail.subject": "アカウントへの新しいサインイン",
  "secMail.intro": "これまでに見たことのないデバイスまたはネットワークから、お客様のアカウント（{email}）へのサインインがありました：{details}。",
  "secMail.ifYou": "ご本人によるものであれば、何もする必要はありません。",
  "secMail.ifNotText": "心当たりがない場合は、次のリンクを開いてください。アカウントからすべてのデバイスとアプリを一度にサインアウトさせ、新しいパスワードの設定をご案内します。",
  "secMail.validText": "このリンクは{validFor}の間、1回だけ使えます。",
  "secMail.button": "心当たりがない",
  "secMail.outro": "このボタンを押すと、アカウントからすべてのデバイスとアプリが一度にサインアウトされ、新しいパスワードの設定をご案内します。{validFor}の間、1回だけ使えます。",
  "secMail.details": "{when}、{device}",
  "secMail.browserOn": "{os} の {browser}",
  "secMail.aBrowserOn": "{os} のブラウザ",
  "secMail.unknownBrowser": "不明なブラウザ",
  "notMe.title": "心当たりがない",
  "notMe.ask.title": "ほかの誰かがサインインしましたか？",
  "notMe.ask.text": "今すぐアカウントからすべてのデバイスとアプリをサインアウトさせてください。そのあと新しいパスワードを設定すれば、サインインした人は二度と入れません。",
  "notMe.ask.button": "すべてサインアウト",
  "notMe.done.title": "すべてサインアウトしました",
  "notMe.done.text": "アカウントにサインインしていたすべてのデバイスとアプリをサインアウトさせました。新しいパスワードを設定してください。",
  "notMe.done.reset": "新しいパスワードを設定",
  "notMe.refused.title": "このリンクは使えません",
  "notMe.refused.text": "すでに使用されたか、有効期限が切れています。ほかの誰かがサインインしたと思われる場合は、パスワードを再設定してください。",
  "notMe.js.busy": "すべてサインアウトしています…",
};
