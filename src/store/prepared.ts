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

/** Lists up to this long get a compiled query (and a PostgreSQL statement) per length; longer ones are built each time. */
const MAX_PREPARED_LIST = 8;

/**
 * A query over a list of values (`where … in list`), built and compiled once per length of the list
 * (prepareQuery): a person's logins are read for one or two recipe users on every sign-in, while an
 * admin page of a hundred users builds its query each time. `build` gets one marker per value.
 */
export function prepareListQuery<R>(build: (db: Kysely<DB>, list: never[]) => Compilable<R>) {
  const byLength: ((db: Kysely<DB>, ...list: unknown[]) => Promise<QueryResult<R>>)[] = [];
  return (db: Kysely<DB>, list: readonly unknown[]): Promise<QueryResult<R>> => {
    // An empty list is built as given (no statement of its own: callers rarely ask).
    if (list.length === 0 || list.length > MAX_PREPARED_LIST) return db.executeQuery(build(db, [...list] as never[]).compile());
    const query = (byLength[list.length] ??= prepareQuery<unknown[], R>(list.length, (d, ...markers) => build(d, markers)));
    return query(db, ...list);
  };
}
