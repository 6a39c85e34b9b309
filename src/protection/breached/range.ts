import { createHash } from "node:crypto";
import type { Config } from "../../config/types.js";
import type { Clock } from "../../util/clock.js";
import type { Logger } from "../../util/logger.js";

/**
 * Have I Been Pwned's Pwned Passwords range API, k-anonymity style: only the first 5 hex characters
 * of the password's SHA-1 leave the server (GET <url><prefix>); the answer lists every known suffix
 * of that prefix with its count, padded with fake zero-count suffixes (`Add-Padding: true`) so its
 * size does not tell which prefix was asked. Answers are cached for a few minutes, for at most a
 * thousand prefixes (an attacker cycling prefixes only evicts). A lookup that fails or takes longer
 * than --breached-passwords-timeout is "unavailable": the caller decides with the shipped list, and
 * for the next half minute nobody waits on the API again (one slow outage must not slow every sign-up).
 */
const CACHE_TTL_MS = 5 * 60_000;
export const CACHE_MAX = 1000;
const BACKOFF_MS = 30_000;

export type RangeAnswer = "breached" | "not-found" | "unavailable";

export interface RangeClient {
  lookup(password: string): Promise<RangeAnswer>;
}

export function createRangeClient(config: Readonly<Config>, deps: { logger: Logger; clock: Clock }): RangeClient {
  const cache = new Map<string, { at: number; suffixes: ReadonlySet<string> }>();
  let downUntil = 0;
  let down = false;

  const fetchRange = async (prefix: string): Promise<ReadonlySet<string> | undefined> => {
    const now = deps.clock.now();
    const hit = cache.get(prefix);
    if (hit && now - hit.at < CACHE_TTL_MS) return hit.suffixes;
    if (now < downUntil) return undefined;
    try {
      const res = await fetch(config.breachedPasswordsUrl + prefix, {
        headers: { "add-padding": "true", "user-agent": "authsvc" },
        signal: AbortSignal.timeout(config.breachedPasswordsTimeoutMs),
        redirect: "error",
      });
      if (res.status !== 200) throw new Error(`HTTP ${res.status}`);
      const suffixes = parseRange(await res.text());
      if (down) deps.logger.info("breached-password lookups answer again");
      down = false;
      cache.delete(prefix);
      cache.set(prefix, { at: deps.clock.now(), suffixes });
      if (cache.size > CACHE_MAX) cache.delete(cache.keys().next().value!);
      return suffixes;
    } catch (err) {
      if (!down) deps.logger.warn("breached-password lookup failed: deciding with the shipped list until it answers again", { err: (err as Error).message });
      down = true;
      downUntil = deps.clock.now() + BACKOFF_MS;
      return undefined;
    }
  };

  return {
    async lookup(password) {
      const hash = createHash("sha1").update(password, "utf8").digest("hex").toUpperCase();
      const suffixes = await fetchRange(hash.slice(0, 5));
      if (!suffixes) return "unavailable";
      return suffixes.has(hash.slice(5)) ? "breached" : "not-found";
    },
  };
}

/** The suffixes a range answer lists with a count above zero (padding lines have 0). Throws on an answer of another shape. */
function parseRange(text: string): ReadonlySet<string> {
  const out = new Set<string>();
  for (const line of text.split(/\r?\n/)) {
    if (line === "") continue;
    const m = /^([0-9A-Fa-f]{35}):(\d+)$/.exec(line.trim());
    if (!m) throw new Error("the range answer is not SUFFIX:COUNT lines");
    if (Number(m[2]) > 0) out.add(m[1].toUpperCase());
  }
  return out;
}
