import { sql, type Kysely } from "kysely";
import type { Dialect } from "../../store/database.js";

/**
 * What a column holds, read from each database's own schema (never from a table's name): the
 * dialects store these differently (a boolean is 0/1 in SQLite and true/false in PostgreSQL, JSON is
 * text or jsonb with its keys reordered, bytes a Buffer either way, a timestamp text or a Date), so
 * values are converted, and compared, by kind.
 */
export type ColumnKind = "integer" | "real" | "text" | "boolean" | "blob" | "json" | "timestamp";

export interface ColumnInfo { kind: ColumnKind; type: string; serial: boolean }

/** A column's kind from its declared (SQLite) or catalogued (PostgreSQL) type. */
export function kindOfType(type: string): ColumnKind {
  const t = type.toLowerCase();
  if (t.includes("bool")) return "boolean";
  if (t.includes("blob") || t.includes("bytea")) return "blob";
  if (t.includes("json")) return "json";
  if (t.includes("timestamp") || t.includes("date")) return "timestamp";
  if (t.includes("int") || t.includes("serial")) return "integer";
  if (/real|floa|doub|numeric|decimal/.test(t)) return "real";
  return "text";
}

/**
 * The columns of a table as this database has them (name -> kind, type, whether a sequence or
 * AUTOINCREMENT numbers it). PostgreSQL reads the current schema (the URL's ?schema=).
 */
export async function readColumns(db: Kysely<any>, dialect: Dialect, table: string): Promise<Map<string, ColumnInfo>> {
  if (dialect === "postgres") {
    const { rows } = await sql<{ column_name: string; data_type: string; column_default: string | null }>`
      select column_name, data_type, column_default from information_schema.columns
      where table_schema = current_schema() and table_name = ${table}`.execute(db);
    return new Map(rows.map((r) => [r.column_name, { kind: kindOfType(r.data_type), type: r.data_type, serial: /^nextval\(/i.test(r.column_default ?? "") }]));
  }
  const { rows: [def] } = await sql<{ sql: string }>`select sql from sqlite_master where type = 'table' and name = ${table}`.execute(db);
  const auto = /autoincrement/i.test(def?.sql ?? "");
  const { rows } = await sql<{ name: string; type: string; pk: number }>`select name, type, pk from pragma_table_info(${table})`.execute(db);
  return new Map(rows.map((r) => [r.name, { kind: kindOfType(r.type), type: r.type, serial: auto && r.pk === 1 }]));
}

/**
 * A value as text that is the same on both ends whatever the dialect made of it, for the checksum:
 * integers in decimal, booleans as true/false, bytes in hex, JSON with its keys sorted, timestamps
 * in ISO 8601. null stays null.
 */
export function canonical(value: unknown, kind: ColumnKind): string | null {
  if (value === null || value === undefined) return null;
  switch (kind) {
    case "integer": return canonicalInteger(value);
    case "real": return String(Number(value));
    case "boolean": return isTrue(value) ? "true" : "false";
    case "blob": return Buffer.from(value as Uint8Array).toString("hex");
    case "json": return JSON.stringify(sortKeys(typeof value === "string" ? JSON.parse(value) : value));
    case "timestamp": return toDate(value)?.toISOString() ?? String(value);
    default: return Buffer.isBuffer(value) ? value.toString("utf8") : String(value);
  }
}

/** A value read from one end, as the other end's driver takes it for a column of `kind`. */
export function toDialect(value: unknown, kind: ColumnKind, dialect: Dialect): unknown {
  if (value === null || value === undefined) return null;
  switch (kind) {
    case "boolean": return dialect === "sqlite" ? (isTrue(value) ? 1 : 0) : isTrue(value);
    case "json": return typeof value === "string" ? value : JSON.stringify(value);
    case "timestamp": {
      if (dialect === "postgres") return toDate(value) ?? value;
      return value instanceof Date ? value.toISOString() : value;
    }
    case "blob": return Buffer.isBuffer(value) ? value : Buffer.from(value as Uint8Array);
    case "integer": return typeof value === "boolean" ? (value ? 1 : 0) : value;
    default: return value;
  }
}

/** Decimal text of an integer however the driver gave it (number, bigint, numeric text); anything else as it is. */
function canonicalInteger(v: unknown): string {
  if (typeof v === "bigint" || (typeof v === "number" && Number.isInteger(v))) return v.toString();
  if (typeof v === "string" && /^-?\d+$/.test(v)) return BigInt(v).toString();
  if (typeof v === "boolean") return v ? "1" : "0";
  return String(v);
}

function isTrue(v: unknown): boolean {
  return v === true || v === 1 || v === 1n || v === "1" || v === "t" || v === "true";
}

function toDate(v: unknown): Date | undefined {
  const d = v instanceof Date ? v : typeof v === "number" ? new Date(v) : typeof v === "string" ? new Date(v) : undefined;
  return d && !Number.isNaN(d.getTime()) ? d : undefined;
}

function sortKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (v && typeof v === "object") return Object.fromEntries(Object.keys(v).sort().map((k) => [k, sortKeys((v as Record<string, unknown>)[k])]));
  return v;
}
