import { match } from "@formatjs/intl-localematcher";
import Negotiator from "negotiator";
import type { Locale } from "./locales.js";

const cache = new Map<string, Locale | undefined>();
const NONE = "und";

/**
 * The offered locale an Accept-Language header asks for (negotiator reads the header and its
 * q-values; @formatjs/intl-localematcher's best fit maps `de-AT` to `de`, `pt` to `pt-BR`, `zh-Hans` to
 * `zh-CN`), or `fallback`. Answers are kept per header (bounded), so a page costs no parsing twice.
 */
export function localeFromAcceptLanguage(header: string | undefined, offered: readonly Locale[], fallback: Locale): Locale {
  return matchAcceptLanguage(header, offered) ?? fallback;
}

/** The offered locale an Accept-Language header asks for, or undefined when it names none of them. */
export function matchAcceptLanguage(header: string | undefined, offered: readonly Locale[]): Locale | undefined {
  if (!header) return undefined;
  const key = `${offered.join(",")}|${header}`;
  if (cache.has(key)) return cache.get(key);
  const requested = new Negotiator({ headers: { "accept-language": header } }).languages().filter((l) => l !== "*");
  let locale: Locale | undefined;
  try {
    const found = match(requested, offered as string[], NONE, { algorithm: "best fit" });
    // Best fit may reach for a distant fallback (English for Swahili): only a locale of a language asked for counts.
    const asked = new Set(requested.map((l) => l.split("-")[0].toLowerCase()));
    locale = found === NONE || !asked.has(found.split("-")[0]) ? undefined : (found as Locale);
  } catch { /* a malformed tag: none */ }
  if (cache.size >= 1000) cache.clear();
  cache.set(key, locale);
  return locale;
}
