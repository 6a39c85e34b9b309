import { badInput } from "../core/errors.js";
import { parseDuration } from "../util/duration.js";

/**
 * A moment a filter names: a time (ISO 8601; a date alone is midnight UTC), epoch milliseconds, or
 * a duration ago ("24h", "7d"). Undefined when not given; BAD_INPUT when unreadable.
 */
export function parseMoment(value: unknown, now: number, name: string): number | undefined {
  if (value === undefined || value === null || value === "") return undefined;
  const text = String(value).trim();
  if (/^\d{12,}$/.test(text)) return Number(text);
  if (/^\d+(\.\d+)?(ms|s|m|h|d)$/.test(text)) return now - parseDuration(text)!;
  const at = /^\d{4}-\d{2}-\d{2}([T ][0-9:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.test(text) ? Date.parse(text) : NaN;
  if (Number.isNaN(at)) throw badInput(`${name} must be a time (2026-12-01, 2026-12-01T09:00:00Z), epoch milliseconds, or a duration ago (24h, 7d)`);
  return at;
}
