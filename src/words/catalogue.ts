import type { Locale } from "./locales.js";

/**
 * A room's words (Room.words): every sentence a person reads, by a stable id, as an ICU
 * MessageFormat message (named placeholders `{name}`, plurals `{n, plural, one {…} other {…}}`),
 * English first. The other locales are typed against the English keys, so a catalogue missing a
 * word does not compile; test/words/catalogues.test.ts checks placeholders and plural forms too.
 */
export type Messages = Readonly<Record<string, string>>;

/** A catalogue in every shipped locale: `en` is the source, the others say the same in their language. */
export type Catalogue<M extends Messages = Messages> = { readonly en: M } & { readonly [L in Exclude<Locale, "en">]: { readonly [K in keyof M]: string } };

/** A translation of an English catalogue (one file per locale in a room's words/ folder). */
export type Translation<M extends Messages> = { readonly [K in keyof M]: string };

/** The rooms' catalogues as one, by locale; an id declared twice is a mistake the kernel refuses at start. */
export function mergeCatalogues(catalogues: readonly Catalogue[]): Record<Locale, Record<string, string>> {
  const out = {} as Record<Locale, Record<string, string>>;
  for (const c of catalogues) {
    for (const [locale, messages] of Object.entries(c) as [Locale, Messages][]) {
      const into = (out[locale] ??= {});
      for (const [id, text] of Object.entries(messages)) {
        if (locale === "en" && id in into) throw new Error(`word ${id} is declared twice`);
        into[id] = text;
      }
    }
  }
  return out;
}
