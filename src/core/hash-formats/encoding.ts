import { timingSafeEqual } from "node:crypto";

/**
 * Base64 as the formats write it: standard, URL-safe, or passlib's "adapted" alphabet ("." for
 * "+"), padded or not. Returns undefined for anything else.
 */
export function decodeBase64(text: string): Buffer | undefined {
  if (!/^[A-Za-z0-9+/._-]*={0,2}$/.test(text)) return undefined;
  const std = text.replace(/=+$/, "").replace(/\./g, "+").replace(/-/g, "+").replace(/_/g, "/");
  if (std.length % 4 === 1) return undefined;
  return Buffer.from(std, "base64");
}

/** Equal bytes, in time that depends only on the (public) lengths. */
export function sameBytes(a: Buffer, b: Buffer): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}

/** "a=1,b=2" → { a: "1", b: "2" }, or undefined if malformed or repeated. */
export function parseParams(text: string): Record<string, string> | undefined {
  const out: Record<string, string> = {};
  for (const part of text.split(",")) {
    const m = /^([a-z]{1,3})=([^,=]*={0,2})$/.exec(part);
    if (!m || m[1] in out) return undefined;
    out[m[1]] = m[2];
  }
  return out;
}

/** A whole number in [min, max] written in decimal, or undefined. */
export function intIn(text: string | undefined, min: number, max: number): number | undefined {
  if (text === undefined || !/^\d{1,10}$/.test(text)) return undefined;
  const n = Number(text);
  return n >= min && n <= max ? n : undefined;
}

/** Standard base64 only (as .NET's Convert.ToBase64String writes it), padded or not; undefined otherwise. */
export function decodeStandardBase64(text: string): Buffer | undefined {
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text) || text.replace(/=+$/, "").length % 4 === 1) return undefined;
  return Buffer.from(text, "base64");
}

/** Text in one of the encodings other systems name (hex in either case, base64 standard or URL-safe, UTF-8). */
export function decodeAs(text: string, encoding: "hex" | "base64" | "utf8"): Buffer | undefined {
  if (encoding === "utf8") return Buffer.from(text, "utf8");
  if (encoding === "hex") return /^(?:[0-9a-fA-F]{2})*$/.test(text) ? Buffer.from(text, "hex") : undefined;
  return decodeBase64(text);
}

/** 1234567 → "1,234,567", for bounds in refusals. */
export const grouped = (n: number): string => n.toLocaleString("en-US");
