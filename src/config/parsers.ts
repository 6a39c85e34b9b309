import { formatDuration, parseDuration } from "../util/duration.js";
import { describeWeakKey } from "../util/key-strength.js";
import { normaliseCidr, normaliseLimitSpec } from "../util/limit-spec.js";
import { parseMegabytes } from "../util/memory-limit.js";
import { suggestName } from "../util/suggest.js";

/**
 * The value parsers of the settings table: each returns the value or throws a message string (the
 * engine, engine.ts, turns it into a ConfigError naming the setting and the bad value).
 */
export type Parser = ((raw: unknown) => unknown) & {
  /** What the value is, as `--help` shows it after the flag (`<duration>`, `<url>`, `[true|false]`); "value" if unsaid. */
  readonly kind?: string;
};

/** `p` with the kind of value it reads (Parser.kind). */
export const kindOf = <P extends (raw: unknown) => unknown>(kind: string, p: P): P & { readonly kind: string } => Object.assign(p, { kind });
/** The kind of the boolean parser: a flag alone is true, `--flag false` and `--no-flag` are false. */
export const BOOLEAN_KIND = "true|false";

export const fail = (why: string): never => { throw why; };
export const str: Parser = kindOf("text", (v: unknown) => (typeof v === "string" && v.trim() !== "" ? v.trim() : fail("expected a non-empty string")));
export const optStr: Parser = kindOf("text", (v: unknown) => (v === undefined || v === null || v === "" ? undefined : str(v)));
export const int = (min: number, max: number): Parser => kindOf("number", (v: unknown) => {
  const n = typeof v === "number" ? v : typeof v === "string" && /^-?\d+$/.test(v.trim()) ? Number(v) : NaN;
  return Number.isInteger(n) && n >= min && n <= max ? n : fail(`expected a whole number from ${min} to ${max}`);
});
export const bool: Parser = kindOf(BOOLEAN_KIND, (v: unknown) => {
  if (typeof v === "boolean") return v;
  if (typeof v === "string" && /^(true|1|yes|on)$/i.test(v.trim())) return true;
  if (typeof v === "string" && /^(false|0|no|off)$/i.test(v.trim())) return false;
  return fail("expected true or false");
});
export const oneOf = <T extends string>(...values: T[]): Parser => kindOf(values.join("|"), (v: unknown) => {
  const s = typeof v === "string" ? v.trim() : v;
  const hit = values.find((x) => typeof s === "string" && x.toLowerCase() === s.toLowerCase());
  return hit ?? fail(`expected one of ${values.join(", ")}`);
});
export const duration = (minMs: number, maxMs: number): Parser => kindOf("duration", (v: unknown) => {
  const ms = parseDuration(v);
  if (ms === undefined) return fail("expected a duration such as 900, 15m, 1h or 30d");
  return ms >= minMs && ms <= maxMs ? ms : fail(`expected a duration from ${formatDuration(minMs)} to ${formatDuration(maxMs)}`);
});
/** A size in MiB: 256, 256MB, 512M, 1G (util/memory-limit.ts parseMegabytes). */
export const megabytes = (min: number, max: number): Parser => kindOf("size", (v: unknown) => {
  const mb = typeof v === "number" ? v : typeof v === "string" ? parseMegabytes(v) : undefined;
  if (mb === undefined || !Number.isFinite(mb)) return fail("expected a size such as 256MB, 512M or 1G");
  return mb >= min && mb <= max ? Math.floor(mb) : fail(`expected a size from ${min} MB to ${max} MB`);
});
export const origin: Parser = kindOf("url", (v: unknown) => {
  let u: URL;
  try { u = new URL(str(v) as string); } catch { return fail("expected an absolute http(s) URL such as https://auth.example.com"); }
  if (u.protocol !== "http:" && u.protocol !== "https:") fail("expected an http or https URL");
  if (u.pathname !== "/" || u.search || u.hash || u.username) fail("expected an origin only (scheme, host and port; no path, query or credentials)");
  return u.origin;
});
export const originList: Parser = kindOf("urls", (v: unknown) => {
  const items = Array.isArray(v) ? v : typeof v === "string" ? v.split(",") : fail("expected a comma-separated list of origins");
  const out = (items as unknown[]).map((x) => origin(x) as string);
  return out.length > 0 ? out : fail("expected at least one origin");
});
export const basePath: Parser = kindOf("path", (v: unknown) => {
  const s = str(v) as string;
  const p = ("/" + s.replace(/^\/+|\/+$/g, "")).replace(/\/+/g, "/");
  return /^\/[A-Za-z0-9._~\-/]*$/.test(p) && p !== "/" ? p : fail("expected a path such as /auth");
});
export const smtpUrl: Parser = kindOf("smtp-url", (v: unknown) => {
  if (v === undefined || v === "") return undefined;
  let u: URL;
  try { u = new URL(str(v) as string); } catch { return fail("expected a URL such as smtp://user:pass@smtp.example.com:587"); }
  return u.protocol === "smtp:" || u.protocol === "smtps:" ? (v as string).trim() : fail("expected an smtp:// or smtps:// URL");
});
export const database: Parser = kindOf("file|postgres-url", (v: unknown) => {
  const s = str(v) as string;
  if (/^postgres(ql)?:\/\//i.test(s)) {
    try { new URL(s); } catch { fail("expected a file path or a postgres:// URL"); }
  }
  // Any other scheme (postgress://, mysql://) would otherwise be taken as a SQLite file name and
  // quietly create an empty database in a folder named after it.
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(s)?.[1];
  if (scheme && !/^(postgres(ql)?|sqlite)$/i.test(scheme)) {
    const guess = suggestName(scheme, ["postgres", "postgresql"]);
    fail(`${scheme}:// is not a supported database; authsvc uses a SQLite file (a path such as ./authsvc.db) or PostgreSQL (postgres://user:password@host:5432/db)${guess ? `; did you mean ${guess}://?` : ""}`);
  }
  return s;
});
export const limitSpec: Parser = kindOf("limit", (v: unknown) => normaliseLimitSpec(typeof v === "number" ? String(v) : (str(v) as string)));
export const cidrList: Parser = kindOf("cidrs", (v: unknown) => {
  const items = Array.isArray(v) ? v : typeof v === "string" ? v.split(",") : fail("expected a comma-separated list of CIDRs such as 10.0.0.0/8,::1/128");
  return (items as unknown[]).map((x) => String(x).trim()).filter((x) => x !== "").map(normaliseCidr);
});

/** The admin API key: long, no spaces, and not guessable (32 × "a" is 32 characters too). */
export function adminKey(v: unknown): unknown {
  const s = str(v) as string;
  if (/\s/.test(s)) return fail("expected no spaces");
  if (s.length < 32) return fail("expected at least 32 characters; generate one with `authsvc admin-key`");
  const weak = describeWeakKey(s);
  return weak ? fail(weak) : s;
}

/** Hosted pages: a logo is an https URL (or http on loopback) or a path on this server. */
export function parseLogoUrl(v: unknown): unknown {
  const s = optStr(v) as string | undefined;
  if (s === undefined) return undefined;
  if (/^\/(?!\/)[^\s"'<>\\]*$/.test(s)) return s;
  let u: URL;
  try { u = new URL(s); } catch { return fail("expected an https URL or a path starting with /"); }
  return u.protocol === "https:" || (u.protocol === "http:" && /^(localhost|127\.0\.0\.1|\[::1\])$/.test(u.host.replace(/:\d+$/, ""))) ? u.toString() : fail("expected an https URL or a path starting with /");
}

/** Hosted pages: where a sign-in may return, as paths on the website (never another site). */
export function parsePathList(v: unknown): unknown {
  const items = Array.isArray(v) ? v : typeof v === "string" ? v.split(",") : fail("expected a comma-separated list of paths");
  const out = (items as unknown[]).map((x) => {
    const p = typeof x === "string" ? x.trim() : "";
    // A path on the website, never a scheme-relative or absolute URL (open redirect).
    return /^\/(?![/\\])[A-Za-z0-9._~!$&'()+,;=:@%/-]*\*?$/.test(p) ? p : fail(`expected paths starting with a single / such as /dashboard; got ${JSON.stringify(x)}`);
  });
  return out.length > 0 ? out : fail("expected at least one path");
}
