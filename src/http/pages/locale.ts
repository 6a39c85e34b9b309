import { getCookie, getQuery, getRequestHeader, setCookie, type H3Event } from "h3";
import type { Config } from "../../config/types.js";
import type { Locale } from "../../words/locales.js";
import { localeFromAcceptLanguage, matchAcceptLanguage } from "../../words/negotiate.js";
import type { WordsTable } from "../../words/words.js";

/** The cookie that keeps a `?lang=` choice (not a secret: a locale tag; readable by no script). */
export const LANG_COOKIE = "authsvc-lang";
const YEAR_S = 365 * 86_400;

/**
 * The locale a hosted page is written in: `?lang=` on any page (an offered locale; kept in a cookie
 * for the next pages), else the cookie, else the browser's Accept-Language, else the operator's
 * `--default-locale`. An unknown `?lang=` is ignored, not refused: a page always shows.
 */
export function pageLocale(event: H3Event, config: Readonly<Config>, words: WordsTable): Locale {
  const offered = words.offered as readonly string[];
  const asked = getQuery(event).lang;
  if (typeof asked === "string" && offered.includes(asked)) {
    setCookie(event, LANG_COOKIE, asked, { path: "/", maxAge: YEAR_S, sameSite: "lax", httpOnly: true, secure: config.publicUrl.startsWith("https:") });
    return asked as Locale;
  }
  const kept = getCookie(event, LANG_COOKIE);
  if (kept && offered.includes(kept)) return kept as Locale;
  return localeFromAcceptLanguage(getRequestHeader(event, "accept-language"), words.offered, words.defaultLocale);
}

/**
 * The locale an API request shows its sender reads (stored for their mail when they sign up): the
 * hosted pages' cookie, else the browser's Accept-Language; undefined when neither names an offered
 * locale (a script, curl: the person's mail then follows --default-locale).
 */
export function requestLocale(event: H3Event, words: WordsTable): Locale | undefined {
  const kept = getCookie(event, LANG_COOKIE);
  if (kept && (words.offered as readonly string[]).includes(kept)) return kept as Locale;
  return matchAcceptLanguage(getRequestHeader(event, "accept-language"), words.offered);
}
