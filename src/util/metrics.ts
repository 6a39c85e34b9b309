/**
 * What the rest of authsvc reports to the metrics room (src/ops/metrics.ts), as plain calls: core,
 * http and mail depend on this interface only, never on prom-client. With metrics off every
 * method is a no-op (`noMetrics`), so call sites need no checks.
 */
export interface MetricsSink {
  /** False for noMetrics: lets the HTTP layer skip its per-request hook entirely. */
  readonly enabled: boolean;
  /** A request finished: route pattern ("unmatched" for none), method, status, duration in seconds. */
  observeRequest(route: string, method: string, status: number, seconds: number): void;
  /** A sign-in attempt's outcome: the method's recipe id (as its room names it) and e.g. "success" | "wrong_credentials" | "field_error". */
  signIn(method: string, outcome: string): void;
  /** A request refused by a rate limit (bucket name from the route table). */
  rateLimited(bucket: string): void;
  /** The database stayed busy past its timeout and the request got a 503. */
  databaseBusy(): void;
  /** A request got a 503 because the database is away, read-only or full (reason: store/outage.ts kinds). */
  databaseUnavailable(reason: string): void;
  /** An outage of that kind began (true) or ended (false). */
  databaseOutage(reason: string, active: boolean): void;
  /** The built-in catcher stored a message. */
  mailCaught(): void;
}

const noop = () => {};

/** Metrics off: every report is dropped at the cost of one call. */
export const noMetrics: MetricsSink = { enabled: false, observeRequest: noop, signIn: noop, rateLimited: noop, databaseBusy: noop, databaseUnavailable: noop, databaseOutage: noop, mailCaught: noop };
