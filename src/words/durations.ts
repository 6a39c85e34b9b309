import { describeDurationInWords } from "../util/duration.js";

/**
 * A lifetime in a locale's words ("1 hour", "1 Stunde", "90分"): the largest whole unit, named by
 * Intl's unit formatting (CLDR's plural forms included); English keeps util/duration's wording.
 */
export function describeDuration(ms: number, locale: string | { locale: string }): string {
  const tag = typeof locale === "string" ? locale : locale.locale;
  if (tag === "en") return describeDurationInWords(ms);
  const units = [["day", 86_400_000], ["hour", 3_600_000], ["minute", 60_000], ["second", 1000]] as const;
  const [unit, size] = units.find(([, size]) => ms >= size && ms % size === 0) ?? ["second", 1000];
  return new Intl.NumberFormat(tag, { style: "unit", unit, unitDisplay: "long" }).format(Math.round(ms / size));
}

/** An instant in a locale's way of writing dates, in UTC (said, since the reader's zone is unknown); English keeps the ISO-like form. */
export function describeInstant(at: number, locale: string): string {
  if (locale === "en") return new Date(at).toISOString().replace(/\.\d{3}Z$/, "Z").replace("T", " ").replace("Z", " UTC");
  return new Intl.DateTimeFormat(locale, { dateStyle: "long", timeStyle: "short", timeZone: "UTC" }).format(at) + " UTC";
}
