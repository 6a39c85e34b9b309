/**
 * The locales the words layer ships, in the order the docs list them: BCP 47 tags, each with its
 * writing direction. An operator offers a subset (`--locales`) and picks the default
 * (`--default-locale`); English is the catalogues' source and every missing word's fallback.
 */
export const shippedLocales = ["en", "de", "fr", "es", "pt-BR", "it", "nl", "pl", "ja", "zh-CN", "ko", "ar"] as const;
export type Locale = (typeof shippedLocales)[number];

/** Right-to-left scripts among the shipped locales. */
const rtl: ReadonlySet<string> = new Set(["ar"]);

/** "rtl" for a right-to-left locale, else "ltr" (the pages' and mails' `dir`). */
export const directionOf = (locale: string): "ltr" | "rtl" => (rtl.has(locale) ? "rtl" : "ltr");

/** Whether a string is one of the shipped locales, spelt exactly. */
export const isLocale = (s: unknown): s is Locale => typeof s === "string" && (shippedLocales as readonly string[]).includes(s);
