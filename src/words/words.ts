import { IntlMessageFormat } from "intl-messageformat";
import type { Logger } from "../util/logger.js";
import { directionOf, type Locale } from "./locales.js";

/** Values a message's placeholders take: text, numbers (plurals), dates. */
export type WordValues = Readonly<Record<string, string | number | Date>>;

/** The words of one locale: every sentence by its id, formatted. */
export interface Words {
  locale: Locale;
  /** The `lang` and `dir` of a page or mail written in it. */
  lang: string;
  dir: "ltr" | "rtl";
  /** A sentence as plain text (the caller escapes it for HTML). */
  t(id: string, values?: WordValues): string;
  /** A sentence as HTML: its own text escaped, the values put in as they are (the caller's HTML, already escaped). */
  html(id: string, values?: Readonly<Record<string, string | number>>): string;
  /** Whether a catalogue has this id (a room's name that may be a word's id or plain text). */
  has(id: string): boolean;
  /** The source messages with one of `segments` at the start of their id or after a dot (`js.` finds `js.x` and `room.js.x`), for a page script to format (pages' JSON block). */
  messages(segments: readonly string[]): Record<string, string>;
}

export interface WordsTable {
  /** The locales offered (config.locales), the default first-fallback (config.defaultLocale). */
  offered: readonly Locale[];
  defaultLocale: Locale;
  /** The words of a locale (an unoffered one gets the default's). */
  of(locale: string | undefined): Words;
}

/** Escapes text for HTML element content and attributes. */
const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

/**
 * The words layer: the rooms' catalogues merged (words/catalogue.ts), the operator's overrides on
 * top (`--words-dir`, words/overrides.ts), and per locale a formatter that compiles each message
 * once, on first use, and keeps it. A word missing in a locale falls back to English, logged once
 * per id and locale; an id no catalogue has is a programming error and throws.
 */
export function createWords(o: {
  catalogues: Readonly<Record<string, Readonly<Record<string, string>>>>;
  overrides?: Readonly<Record<string, Readonly<Record<string, string>>>>;
  offered: readonly Locale[];
  defaultLocale: Locale;
  logger: Logger;
}): WordsTable {
  const english = { ...o.catalogues.en, ...o.overrides?.en };
  const built = new Map<string, Words>();
  const warned = new Set<string>();

  function build(locale: Locale): Words {
    const own = { ...o.catalogues[locale], ...(locale === "en" ? {} : o.overrides?.[locale]) };
    const compiled = new Map<string, IntlMessageFormat>();
    const source = (id: string): { text: string; locale: string } => {
      const text = own[id];
      if (text !== undefined) return { text, locale };
      if (!(id in english)) throw new Error(`no word ${id} in any catalogue`);
      if (locale !== "en" && !warned.has(`${locale} ${id}`)) {
        warned.add(`${locale} ${id}`);
        o.logger.warn("word missing in a locale; English used", { locale, id });
      }
      return { text: english[id], locale: "en" };
    };
    const format = (id: string): IntlMessageFormat => {
      let f = compiled.get(id);
      if (!f) {
        const s = source(id);
        f = new IntlMessageFormat(s.text, s.locale, undefined, { ignoreTag: true });
        compiled.set(id, f);
      }
      return f;
    };
    return {
      locale, lang: locale, dir: directionOf(locale),
      t: (id, values) => String(format(id).format(values as Record<string, string>)),
      html: (id, values) => {
        // Each HTML value goes in as a marker no message holds, so only the message's own text is escaped.
        const html: string[] = [];
        const marked = Object.fromEntries(Object.entries(values ?? {}).map(([k, v]) => (typeof v === "number" ? [k, v] : [k, `\u0000${html.push(v) - 1}\u0000`])));
        return escapeHtml(String(format(id).format(marked))).replace(/\u0000(\d+)\u0000/g, (_, i: string) => html[Number(i)]);
      },
      has: (id) => id in english,
      messages: (segments) => Object.fromEntries(Object.keys(english).filter((id) => segments.some((p) => id.startsWith(p) || id.includes(`.${p}`))).map((id) => [id, source(id).text])),
    };
  }

  return {
    offered: o.offered,
    defaultLocale: o.defaultLocale,
    of(requested) {
      const locale = (o.offered as readonly string[]).includes(requested ?? "") ? (requested as Locale) : o.defaultLocale;
      let w = built.get(locale);
      if (!w) built.set(locale, (w = build(locale)));
      return w;
    },
  };
}

/** Whether an ICU message parses (overrides are checked at start). */
export function checkMessage(text: string, locale: string): string | undefined {
  try {
    new IntlMessageFormat(text, locale, undefined, { ignoreTag: true });
    return undefined;
  } catch (err) {
    return (err as Error).message;
  }
}
