import { createReadStream, readFileSync } from "node:fs";
import { createInterface } from "node:readline";
import { parse as parseCsvStream } from "csv-parse";
import { parse as parseCsv } from "csv-parse/sync";
import { FACT_NAMES, refuseImport, type FactKind, type FactLogin, type FactUse, type ImportFact, type ImportPart } from "../core/import-parts.js";
import type { MovedInput, MovedPerson } from "./source.js";

/** A row of another system's export, or a record in our import format (ops/user-record.ts) before validation. */
export type SourceRecord = { [key: string]: unknown };

/** Our name for another system's provider id ("google-oauth2", "google.com" → "google"); others kept. */
export function providerId(theirs: string): string {
  const known: { [k: string]: string } = {
    "google-oauth2": "google", "google.com": "google", "github.com": "github", "apple.com": "apple", "facebook.com": "facebook",
    "twitter.com": "twitter", "microsoft.com": "microsoft", windowslive: "microsoft", azure: "microsoft", "oauth_google": "google", "oauth_github": "github",
    "oauth_apple": "apple", "oauth_microsoft": "microsoft", "oauth_facebook": "facebook", "oauth_gitlab": "gitlab", "oauth_discord": "discord",
  };
  return known[theirs] ?? theirs.replace(/^oauth_/, "").replace(/[^a-z0-9-]/gi, "-").toLowerCase();
}

/** Epoch milliseconds from an ISO date, a Date (a driver's timestamp), epoch milliseconds (number or digits), or undefined. */
export function millis(v: unknown): number | undefined {
  if (v === undefined || v === null || v === "") return undefined;
  if (typeof v === "number") return Number.isFinite(v) ? Math.trunc(v) : undefined;
  if (v instanceof Date) return Number.isNaN(v.getTime()) ? undefined : v.getTime();
  if (typeof v === "string" && /^\d{1,16}$/.test(v)) return Number(v);
  // PostgreSQL's text form ("2024-02-01 09:59:00.5+00") as ISO 8601.
  const t = typeof v === "string" ? Date.parse(v.replace(/^(\d{4}-\d\d-\d\d) /, "$1T").replace(/([+-]\d\d)$/, "$1:00")) : NaN;
  return Number.isNaN(t) ? undefined : t;
}

/** A JSON object from text (CSV cells hold JSON), or undefined when empty or not an object. */
export function jsonObject(v: unknown): SourceRecord | undefined {
  if (v && typeof v === "object" && !Array.isArray(v)) return v as SourceRecord;
  if (typeof v !== "string" || v.trim() === "") return undefined;
  try {
    const o = JSON.parse(v);
    return o && typeof o === "object" && !Array.isArray(o) ? o : undefined;
  } catch {
    return undefined;
  }
}

/** Drops undefined and empty-object values (so a record says only what the source had). */
export function compact(o: SourceRecord): SourceRecord {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined && !(v && typeof v === "object" && !Array.isArray(v) && Object.keys(v).length === 0)));
}

/** One person read: the row to import (made a record by readSource, a refusal saying where it came from). */
export function toInput(n: number, where: string, person: MovedPerson): MovedInput {
  return { line: n, where, person };
}

/** People read, as rows numbered from 1 in the order given. */
export function toInputs(people: Iterable<{ where: string; person: MovedPerson }>): MovedInput[] {
  const out: MovedInput[] = [];
  let n = 0;
  for (const { where, person } of people) out.push(toInput(++n, where, person));
  return out;
}

/** The fields every login method has in the import format; the rest of a fact is its own. */
const LOGIN_FIELDS = new Set<string>(["email", "verified", "timeJoined", "recipeUserId"] satisfies Array<keyof FactLogin>);

/** The part that takes a kind of fact: the first, in the rooms' order, that declares it. */
const takerOf = (parts: readonly ImportPart[], kind: FactKind) => {
  const part = parts.find((p) => p.takes?.[kind]?.login || p.takes?.[kind]?.top);
  return part && { part, use: part.takes![kind] as FactUse<FactKind> };
};

/**
 * A person's record in the import format, assembled from the facts a source read: each fact goes
 * to the room's part that takes it (ImportPart.takes), which makes a login method of it (its
 * recipe id, the fact's address, verified flag, time and user id, and the part's own fields in
 * the place the fact's own stood) or its fields at the record's top (after loginMethods). The
 * kernel names no room. A fact no part takes refuses the row, as a record naming a login method
 * no room reads is refused.
 */
export function recordOf(parts: readonly ImportPart[], person: MovedPerson): SourceRecord {
  const loginMethods: SourceRecord[] = [];
  const forTop = new Map<FactKind, ImportFact[]>();
  for (const fact of person.facts) {
    const taker = takerOf(parts, fact.fact);
    if (!taker) return refuseImport(`${FACT_NAMES[fact.fact]}${fact.email ? ` for ${fact.email}` : ""} cannot move: no sign-in method on this server takes it`);
    if (taker.use.login) loginMethods.push(loginOf(taker.part, fact, taker.use.login));
    else forTop.set(fact.fact, [...(forTop.get(fact.fact) ?? []), fact]);
  }
  const top: SourceRecord = {};
  for (const [kind, facts] of forTop) Object.assign(top, takerOf(parts, kind)!.use.top!(facts));
  const { id, email, verified, timeJoined, metadata } = person;
  return compact({ id, email, verified, timeJoined, loginMethods, ...top, metadata });
}

function loginOf(part: ImportPart, fact: ImportFact, login: (fact: ImportFact) => Record<string, unknown>): SourceRecord {
  if (part.recipeId === undefined) throw new Error(`import part ${part.id} makes logins of ${fact.fact} but has no recipeId`);
  const own = login(fact);
  const method: SourceRecord = { recipeId: part.recipeId };
  let placed = false;
  for (const [key, value] of Object.entries(fact)) {
    if (key === "fact") continue;
    if (LOGIN_FIELDS.has(key)) method[key] = value;
    else if (!placed) { Object.assign(method, own); placed = true; }
  }
  if (!placed) Object.assign(method, own);
  return method;
}

export async function* readJsonLines(file: string): AsyncIterable<{ line: number; value: unknown }> {
  const lines = createInterface({ input: createReadStream(file), crlfDelay: Infinity });
  let line = 0;
  for await (const raw of lines) {
    line++;
    const text = line === 1 ? raw.replace(/^\uFEFF/, "") : raw;
    if (text.trim() === "") continue;
    let value: unknown;
    try { value = JSON.parse(text); } catch { throw new MoveInError(`${file} line ${line} is not valid JSON`); }
    yield { line, value };
  }
}

/** A CSV file with a header row, as objects keyed by the header. */
export function readCsv(file: string): Array<{ [column: string]: string }> {
  try {
    return parseCsv(readFileSync(file), { columns: true, bom: true, skip_empty_lines: true, relax_column_count: false });
  } catch (err) {
    throw new MoveInError(`${file} is not CSV with a header row: ${(err as Error).message}`);
  }
}

/** A CSV file with a header row, read a row at a time (a large export is never held whole), with each row's line. */
export async function* streamCsv(file: string): AsyncIterable<{ line: number; row: { [column: string]: string } }> {
  const parser = createReadStream(file).pipe(parseCsvStream({ columns: true, bom: true, skip_empty_lines: true, relax_column_count: false, info: true }));
  try {
    for await (const r of parser as AsyncIterable<{ record: { [column: string]: string }; info: { lines: number } }>) yield { line: r.info.lines, row: r.record };
  } catch (err) {
    throw new MoveInError(`${file} is not CSV with a header row: ${(err as Error).message}`);
  }
}

/** A problem with the files given (not with one user): the import does not start. */
export class MoveInError extends Error {}

/** Bytes as RFC 4648 Base32 without padding (how authenticator secrets are written). */
export function base32(bytes: Buffer): string {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
  let out = "", bits = 0, value = 0;
  for (const b of bytes) {
    value = (value << 8) | b;
    bits += 8;
    while (bits >= 5) { out += alphabet[(value >>> (bits - 5)) & 31]; bits -= 5; }
  }
  return bits > 0 ? out + alphabet[(value << (5 - bits)) & 31] : out;
}

/** A whole JSON file (an export that is one JSON document), or a MoveInError naming it. */
export function readJsonFile(file: string): unknown {
  let text: string;
  try { text = readFileSync(file, "utf8").replace(/^\uFEFF/, ""); } catch (err) { throw new MoveInError(`cannot read ${file}: ${(err as Error).message}`); }
  try { return JSON.parse(text); } catch (err) { throw new MoveInError(`${file} is not JSON: ${(err as Error).message}`); }
}
