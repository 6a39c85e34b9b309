const units: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/**
 * Parses a duration: a number of seconds (`900`), or a number with a unit (`15m`, `30d`, `10s`, `500ms`).
 * Returns milliseconds, or undefined when the text is not a duration.
 */
export function parseDuration(value: unknown): number | undefined {
  if (typeof value === "number") return Number.isFinite(value) && value >= 0 ? value * 1000 : undefined;
  if (typeof value !== "string") return undefined;
  const m = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)?\s*$/.exec(value);
  if (!m) return undefined;
  return Math.round(Number(m[1]) * units[m[2] ?? "s"]);
}

/** Formats milliseconds the way parseDuration reads them back (largest whole unit). */
export function formatDuration(ms: number): string {
  for (const u of ["d", "h", "m", "s"]) if (ms % units[u] === 0 && ms >= units[u]) return `${ms / units[u]}${u}`;
  return `${ms}ms`;
}
