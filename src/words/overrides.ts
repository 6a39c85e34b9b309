import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { isLocale, type Locale } from "./locales.js";
import { checkMessage } from "./words.js";

/**
 * The operator's words (`--words-dir`): one JSON file per locale (`de.json`, `pt-BR.json`), each an
 * object of message ids and ICU messages that replace the shipped ones, read once at start. A file
 * for a locale that is not shipped, an id no catalogue has, or a message that does not parse fails
 * the start with the file's name (a typo would otherwise change nothing, silently).
 */
export function loadWordOverrides(dir: string | undefined, english: Readonly<Record<string, string>>): Partial<Record<Locale, Record<string, string>>> {
  if (!dir) return {};
  if (!existsSync(dir)) throw new Error(`words folder ${dir} does not exist`);
  const out: Partial<Record<Locale, Record<string, string>>> = {};
  for (const file of readdirSync(dir).filter((f) => f.endsWith(".json")).sort()) {
    const locale = file.slice(0, -".json".length);
    const path = join(dir, file);
    if (!isLocale(locale)) throw new Error(`words file ${path}: ${locale} is not a shipped locale`);
    let parsed: unknown;
    try { parsed = JSON.parse(readFileSync(path, "utf8")); } catch (err) { throw new Error(`words file ${path}: ${(err as Error).message}`); }
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) throw new Error(`words file ${path}: expected an object of message ids and messages`);
    const words: Record<string, string> = {};
    for (const [id, text] of Object.entries(parsed)) {
      if (!(id in english)) throw new Error(`words file ${path}: no word ${id} in any catalogue`);
      if (typeof text !== "string") throw new Error(`words file ${path}: ${id} is not a string`);
      const bad = checkMessage(text, locale);
      if (bad) throw new Error(`words file ${path}: ${id}: ${bad}`);
      words[id] = text;
    }
    out[locale] = words;
  }
  return out;
}
