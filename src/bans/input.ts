import { badInput } from "../core/errors.js";
import { parseDuration } from "../util/duration.js";

/** The longest reason kept (it is shown to operators and, with --mail, mailed to the person). */
export const MAX_REASON = 500;

/**
 * When a ban ends, from what an operator wrote: a time (ISO 8601, "2027-01-31" or
 * "2027-01-31T09:00:00Z"; a date is midnight UTC), epoch milliseconds (the admin API's number), or
 * a duration from now ("7d", "12h"). It must be in the future. Undefined: for good.
 */
export function parseUntil(value: unknown, now: number): number | undefined {
  if (value === undefined || value === null || value === "") return undefined;
  let at: number | undefined;
  if (typeof value === "number") at = Number.isSafeInteger(value) ? value : undefined;
  else if (typeof value === "string") {
    const d = /^\d+(\.\d+)?(ms|s|m|h|d)$/.test(value.trim()) ? parseDuration(value) : undefined;
    at = d !== undefined ? now + d : /^\d{4}-\d{2}-\d{2}([T ][0-9:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.test(value.trim()) ? Date.parse(value.trim()) : undefined;
  }
  if (at === undefined || Number.isNaN(at)) throw badInput("until must be a time (2027-01-31 or 2027-01-31T09:00:00Z), epoch milliseconds, or a duration from now (7d, 12h)");
  if (at <= now) throw badInput("until must be in the future");
  return at;
}

/** The reason as kept: trimmed, at most MAX_REASON characters, one line; undefined when empty. */
export function parseReason(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "string") throw badInput("reason must be a string");
  const r = value.replace(/\s+/g, " ").trim();
  if (r.length > MAX_REASON) throw badInput(`reason must be at most ${MAX_REASON} characters`);
  return r === "" ? undefined : r;
}
