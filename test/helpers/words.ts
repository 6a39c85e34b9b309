import { catalogues } from "../../src/rooms.js";
import { silentLogger } from "../../src/util/logger.js";
import { shippedLocales } from "../../src/words/locales.js";
import { createWords, type Words } from "../../src/words/words.js";

/** The shipped words (every room's catalogue, no overrides), every locale offered. */
export const shippedWords = createWords({ catalogues, offered: shippedLocales, defaultLocale: "en", logger: silentLogger });

/** The words of one locale. */
export const wordsIn = (locale: string): Words => shippedWords.of(locale);
