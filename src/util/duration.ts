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

/** A time left, rounded up to the second, in at most two units: "1h 5m", "59m 58s", "3s", "2d 4h". */
export function formatRemaining(ms: number): string {
  let s = Math.max(0, Math.ceil(ms / 1000));
  const parts: string[] = [];
  for (const [unit, size] of [["d", 86_400], ["h", 3600], ["m", 60], ["s", 1]] as const) {
    if (s >= size || (unit === "s" && parts.length === 0)) {
      parts.push(`${Math.floor(s / size)}${unit}`);
      s %= size;
    }
    if (parts.length === 2) break;
  }
  return parts.join(" ");
}

/** "1 hour", "1 day", "90 minutes": a duration for people (mail text, pages). */
export function describeDurationInWords(ms: number): string {
  const words: Array<[number, string]> = [[86_400_000, "day"], [3_600_000, "hour"], [60_000, "minute"]];
  for (const [size, name] of words) if (ms >= size && ms % size === 0) return `${ms / size} ${name}${ms / size === 1 ? "" : "s"}`;
  return `${Math.round(ms / 60_000)} minutes`;
}
