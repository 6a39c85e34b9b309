import type { Translation } from "../../../words/catalogue.js";
import type { en } from "./en.js";

export const ja: Translation<typeof en> = {
  "thirdParty.js.continueWith": "{provider} で続ける",
  "thirdParty.js.orEmail": "またはメールアドレスで",
  "thirdParty.js.failed": "サインインできませんでした",
  "thirdParty.js.otherTab": "このサインインはこのタブで開始されたものではありません。最初からやり直してください。",
  "thirdParty.js.providerRefused": "プロバイダーがサインインを拒否しました（{reason}）。",
  "thirdParty.js.stateMismatch": "サインインの応答が送信したリクエストと一致しません。最初からやり直してください。",
  "thirdParty.js.refusal.elsewhere": "プロバイダーがこのアドレスを確認しておらず、別のアカウントがすでにこのアドレスを使っています。前回と同じ方法か、このアドレスにメールで送るコードでサインインしてください。",
  "thirdParty.callback.title": "サインイン中",
  "thirdParty.callback.progress": "サインインしています…",
  "thirdParty.login": "{provider} でサインイン",
  "thirdParty.mail.subject": "サインイン方法のご案内",
  "thirdParty.mail.intro": "アカウント {email} のパスワード再設定がリクエストされました。このアカウントにはパスワードがなく、{provider} でサインインします。サインインページの「{provider} で続ける」ボタンを使ってください。",
  "thirdParty.mail.introText": "アカウント {email} のパスワード再設定がリクエストされました。このアカウントにはパスワードがなく、{provider} でサインインします。次のページの「{provider} で続ける」ボタンを使ってください：",
  "thirdParty.mail.button": "{provider} でサインイン",
};
