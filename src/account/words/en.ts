/** The account room's words (the language of my mail on "My account"), in English (the source). */
export const en = {
  "account.locale.title": "Language of your mail",
  "account.locale.label": "Language",
  "account.locale.save": "Save",
  "account.js.localeSaved": "Saved: your mail will be written in this language.",
  "account.js.supportSession": "Support session by {admin}",
} as const;
