import { namedStatements } from "./prepared.js";

/**
 * How authsvc reaches PostgreSQL: directly (or through a session-mode pooler, which is the same to
 * us: one server session per client connection), or through a transaction-mode pooler (PgBouncer
 * `pool_mode = transaction`, Supabase's port 6543, Neon's `-pooler` hosts), which hands each
 * transaction, and each statement outside one, to whichever server connection is free.
 *
 * Behind a transaction-mode pooler nothing may rely on a server session lasting between
 * transactions: no named prepared statements (prepared.ts; one client's "authsvc_1" meets another's
 * on the same server connection: "prepared statement already exists"), no session `SET` (the
 * `?schema=` search_path is set with `SET LOCAL` in every transaction instead), no session advisory
 * locks, LISTEN or temporary tables (authsvc uses none: its advisory locks are transaction-scoped).
 */
export interface PgConnectionMode {
  pooler: "transaction" | "none";
  /** How it was decided, for the start-up banner: said in the URL, read from the host or port, or learnt from an error. */
  decidedBy: "url" | "host" | "port" | "error" | "default";
}

/**
 * Reads the mode from the URL and removes the `pooler` (or Prisma's `pgbouncer`) parameter, which is
 * ours, not the server's. Without one, known transaction-mode poolers are recognised by host and
 * port; anything else is taken as direct until a named statement fails the way only a pooler makes
 * it (see adaptClient). Throws on a value it does not know.
 */
export function readConnectionMode(url: URL): PgConnectionMode {
  const said = url.searchParams.get("pooler") ?? (url.searchParams.get("pgbouncer") === "true" ? "transaction" : null);
  url.searchParams.delete("pooler");
  url.searchParams.delete("pgbouncer");
  if (said !== null) {
    if (said === "transaction") return { pooler: "transaction", decidedBy: "url" };
    if (said === "session" || said === "none") return { pooler: "none", decidedBy: "url" };
    throw new Error(`unknown pooler=${said} in the database URL: say pooler=transaction (PgBouncer in transaction mode, Supabase's port 6543, Neon's -pooler host), or pooler=session / pooler=none`);
  }
  const host = url.hostname.toLowerCase();
  // Neon's pooled endpoints are PgBouncer in transaction mode; Supabase's pooler is transaction mode on 6543 (session on 5432).
  if (/-pooler\./.test(host)) return { pooler: "transaction", decidedBy: "host" };
  if (url.port === "6543") return { pooler: "transaction", decidedBy: "port" };
  // PgBouncer's default port; in session mode it would work either way, so the careful choice costs little.
  if (url.port === "6432") return { pooler: "transaction", decidedBy: "port" };
  return { pooler: "none", decidedBy: "default" };
}

/** One line for the start-up banner: which mode, and how it was decided. */
export function describeConnectionMode(mode: PgConnectionMode): string {
  if (mode.pooler === "none") {
    return mode.decidedBy === "url"
      ? "direct or session-pooled connection (pooler=session in the URL): named prepared statements"
      : "direct connection: named prepared statements (add ?pooler=transaction behind a transaction-mode pooler)";
  }
  const how = { url: "said in the URL", host: "recognised by its host", port: "recognised by its port", error: "detected from a prepared-statement error", default: "" }[mode.decidedBy];
  return `through a transaction-mode pooler (${how}): no named prepared statements, the schema set per transaction (?pooler=session if it is not one)`;
}

// 42P05: "prepared statement … already exists"; 26000: "prepared statement … does not exist". On a
// direct connection pg names each statement once per session, so either means another session
// answered: a transaction-mode pooler. Both fail before the statement runs, so a retry is safe.
const POOLER_CODES = new Set(["42P05", "26000"]);
const BEGIN = /^\s*(begin|start\s+transaction)\b/i;
const END = /^\s*(commit|rollback|end|abort)\s*;?\s*$/i;

type Query = (...args: unknown[]) => Promise<unknown>;
interface PgClient { query: unknown }

/**
 * Replaces a pg client's `query`: on a direct connection, the hot statements (prepared.ts) go out
 * named, parsed and planned once per session; behind a transaction-mode pooler they go out unnamed,
 * and with a `schema` every transaction sets its search_path locally (a statement outside a
 * transaction runs in one of its own: three round trips instead of one, the price of `?schema=`
 * behind such a pooler). `mode` is shared by the store's clients; a pooler's error switches it.
 */
export function adaptClient(client: PgClient, mode: PgConnectionMode, schema: string | undefined, onDetected: () => void): void {
  const query = (client.query as Query).bind(client);
  const setPath = schema === undefined ? "" : `set local search_path to "${schema}"`;
  let inTransaction = false;
  const alone = async (text: string, values: unknown): Promise<unknown> => {
    await query(`begin; ${setPath}`);
    try {
      const result = await query(text, values);
      await query("commit");
      return result;
    } catch (err) {
      await query("rollback").catch(() => {});
      throw err;
    }
  };
  const pooled = async (text: string, values: unknown): Promise<unknown> => {
    if (!setPath) return query(text, values);
    if (BEGIN.test(text)) {
      const r = await query(`${text}; ${setPath}`);
      inTransaction = true;
      return Array.isArray(r) ? r[0] : r;
    }
    if (END.test(text)) { inTransaction = false; return query(text, values); }
    return inTransaction ? query(text, values) : alone(text, values);
  };
  (client as { query: unknown }).query = (text: unknown, values?: unknown, cb?: unknown) => {
    // Callback calls and query objects (pg-pool's own) go through unchanged.
    if (typeof text !== "string" || cb !== undefined || typeof values === "function") return query(text, values, cb);
    if (mode.pooler === "transaction") return pooled(text, values);
    if (BEGIN.test(text)) inTransaction = true;
    else if (END.test(text)) inTransaction = false;
    const name = namedStatements.get(text);
    if (!name) return query(text, values);
    return query({ name, text, values }).catch((err: { code?: string }) => {
      if (!POOLER_CODES.has(err?.code ?? "")) throw err;
      if (mode.pooler === "none") { mode.pooler = "transaction"; mode.decidedBy = "error"; onDetected(); }
      // Inside a transaction the error has aborted it: the caller's transaction fails (503 or a
      // retry); outside one nothing ran, so the statement is sent again, unnamed.
      if (inTransaction) throw err;
      return pooled(text, values);
    });
  };
}
