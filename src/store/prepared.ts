import type { Compilable, CompiledQuery, Kysely, QueryResult } from "kysely";
import type { DB } from "./schema.js";

/**
 * SQL texts of prepared queries with their PostgreSQL statement names: the pg pool (database.ts)
 * sends these as named queries, so each connection parses and plans them once.
 */
export const namedStatements = new Map<string, string>();

type Marker = { readonly marker: number };

/**
 * A query built and compiled once per dialect (hot paths: the authenticated GET, refresh); each
 * call only binds its parameters. `build` gets one marker per parameter and must use each where the
 * value goes; values it writes literally (null, constants) stay in the compiled query.
 */
export function prepareQuery<P extends unknown[], R>(arity: P["length"], build: (db: Kysely<DB>, ...params: never[]) => Compilable<R>) {
  const markers: Marker[] = Array.from({ length: arity }, (_, i) => ({ marker: i }));
  // Keyed by the dialect's adapter: a transaction shares its root's adapter, so db and tx hit alike.
  const compiled = new WeakMap<object, { query: CompiledQuery<R>; slots: (number | { value: unknown })[] }>();
  return (db: Kysely<DB>, ...params: P): Promise<QueryResult<R>> => {
    const key = db.getExecutor().adapter;
    let c = compiled.get(key);
    if (!c) {
      const query = build(db, ...(markers as never[])).compile();
      const slots = query.parameters.map((v) => (markers.includes(v as Marker) ? (v as Marker).marker : { value: v }));
      if (!namedStatements.has(query.sql)) namedStatements.set(query.sql, `authsvc_${namedStatements.size + 1}`);
      c = { query, slots };
      compiled.set(key, c);
    }
    const parameters = c.slots.map((s) => (typeof s === "number" ? params[s] : s.value));
    return db.executeQuery<R>({ ...c.query, parameters });
  };
}
