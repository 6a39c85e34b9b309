import { createRequire } from "node:module";
import type { ZxcvbnFactory } from "@zxcvbn-ts/core";

/** A key must take at least this many guesses (10^30, about 100 bits) by zxcvbn's estimate. */
const MIN_GUESSES_LOG10 = 30;

let estimator: ZxcvbnFactory | undefined;

/**
 * Why a bearer key is too easy to guess, or undefined when it is strong enough. zxcvbn sees what a
 * length check does not: repeats (32 × "a"), sequences ("abcdef…", "0123…") and keyboard rows.
 * A key from `authsvc admin-key` (256 random bits) or `openssl rand -hex 16` passes. Runs once
 * per configuration (tens of milliseconds), never per request.
 */
export function describeWeakKey(key: string): string | undefined {
  estimator ??= new (loadZxcvbn().ZxcvbnFactory)();
  const { guessesLog10 } = estimator.check(key);
  if (guessesLog10 >= MIN_GUESSES_LOG10) return undefined;
  return `too easy to guess (about ${Math.round(guessesLog10 * Math.log2(10))} bits; at least 100 needed): generate one with \`authsvc admin-key\``;
}

/**
 * Loaded on first use (a key in the configuration), not at every start; the same literal require as
 * core/passwords.ts, so both builds resolve it (the npm bundle's banner `require`, the single
 * executable's bundled copy).
 */
function loadZxcvbn(): typeof import("@zxcvbn-ts/core") {
  return typeof require === "function" ? require("@zxcvbn-ts/core") : createRequire(import.meta.url)("@zxcvbn-ts/core");
}
