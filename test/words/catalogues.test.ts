import { parse, TYPE, type MessageFormatElement } from "@formatjs/icu-messageformat-parser";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { catalogues, rooms } from "../../src/rooms.js";
import { shippedLocales } from "../../src/words/locales.js";

/** A message's placeholders (names), and for each plural, the categories it writes out. */
function shape(text: string): { names: Set<string>; plurals: Array<{ name: string; forms: string[] }> } {
  const names = new Set<string>();
  const plurals: Array<{ name: string; forms: string[] }> = [];
  const walk = (els: MessageFormatElement[]) => {
    for (const el of els) {
      if (el.type === TYPE.argument || el.type === TYPE.number || el.type === TYPE.date || el.type === TYPE.time) names.add(el.value);
      if (el.type === TYPE.plural || el.type === TYPE.select) {
        names.add(el.value);
        if (el.type === TYPE.plural) plurals.push({ name: el.value, forms: Object.keys(el.options) });
        for (const o of Object.values(el.options)) walk(o.value);
      }
    }
  };
  walk(parse(text, { ignoreTag: true }));
  return { names, plurals };
}

/** Names and brands that read the same in every language. */
const SAME_EVERYWHERE = /^(E-?mail|Email|Password|HTTP \{status\}|OK)$/i;

describe("the catalogues", () => {
  const english = catalogues.en;
  const others = shippedLocales.filter((l) => l !== "en");

  it("every room that declares words declares them in every shipped locale", () => {
    for (const room of rooms.filter((r) => r.words)) expect(Object.keys(room.words!).sort(), room.id).toEqual([...shippedLocales].sort());
  });

  it.each(others)("%s has every key, the same placeholders, and every plural form its language has", (locale) => {
    const messages = catalogues[locale];
    expect(Object.keys(messages).sort()).toEqual(Object.keys(english).sort());
    const categories = new Intl.PluralRules(locale).resolvedOptions().pluralCategories;
    for (const [id, source] of Object.entries(english)) {
      const want = shape(source);
      const got = shape(messages[id]);
      expect([...got.names].sort(), `${locale} ${id}`).toEqual([...want.names].sort());
      for (const p of got.plurals) for (const c of categories) expect(p.forms, `${locale} ${id}: plural form ${c}`).toContain(c);
    }
  });

  it("every word a page script asks for by its id is one the page carries (a js word of some catalogue)", () => {
    // A script's words come from the page's JSON block, which holds only the ids with a `js` segment:
    // any other id would be shown as the id itself.
    const src = join(import.meta.dirname, "../../src");
    const walk = (dir: string): string[] => readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : [join(dir, e.name)]));
    const scripts = walk(src).filter((f) => f.endsWith(".js"));
    const asked = scripts.flatMap((f) => [...readFileSync(f, "utf8").matchAll(/\bwords\("([\w.-]+)"/g)].map((m) => `${f.slice(src.length + 1)}: ${m[1]}`));
    expect(asked.length).toBeGreaterThan(100);
    const missing = asked.filter((a) => { const id = a.split(": ")[1]; return !(id in english) || !/(^|\.)js\./.test(id); });
    expect(missing).toEqual([]);
  });

  it("English has every plural form English has (one, other)", () => {
    for (const [id, text] of Object.entries(english)) for (const p of shape(text).plurals) expect(p.forms, id).toEqual(expect.arrayContaining(["one", "other"]));
  });

  it.each(others)("no English left in %s beyond names and brands", (locale) => {
    const messages = catalogues[locale];
    // A sentence the same as the English one was not translated (a single word such as a brand may be,
    // with its placeholders, such as "Passkeys ({passkeys})", and so may a message of placeholders and
    // punctuation only, such as "{when}, {device}").
    const letters = (text: string) => text.replace(/\{[^}]*\}/g, "").replace(/[^\p{L}\s]/gu, "").trim();
    const sentence = (text: string) => /\p{L}\s+\p{L}/u.test(letters(text));
    const same = Object.entries(english).filter(([id, text]) => messages[id] === text && sentence(text) && !SAME_EVERYWHERE.test(text)).map(([id]) => id);
    expect(same).toEqual([]);
    // Nor a common English word inside a translation.
    // (Loanwords such as "Link", "Password" and "account" are at home in several of them.)
    const englishWords = /\b(the|your|please|with|sign in|signed|you|here|again|address)\b/i;
    const mixed = Object.entries(messages).filter(([, text]) => englishWords.test(text.replace(/\{[^}]*\}/g, ""))).map(([id, text]) => `${id}: ${text}`);
    expect(mixed).toEqual([]);
  });
});
