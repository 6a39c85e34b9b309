import { sql } from "kysely";
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";
import type { Store } from "../store/database.js";
import type { Clock } from "../util/clock.js";
import type { MetricsSink } from "../util/metrics.js";

/** The Prometheus side of the metrics room: what the app reports, and the text a scrape gets. */
export interface Metrics {
  sink: MetricsSink;
  /** The exposition text (outbox figures are read from the database now). */
  render(): Promise<{ contentType: string; body: string }>;
  /** The same figures as prom-client JSON, for a cluster's primary to aggregate (AggregatorRegistry). */
  json(): Promise<unknown[]>;
}

type RequestChildren = { count: Counter.Internal; duration: Histogram.Internal<string> };

/**
 * Builds a registry of its own (not prom-client's global one: tests run many apps in one process)
 * with process metrics, HTTP request counts and latency by route pattern, sign-ins, rate-limit
 * refusals, database busy and outages, caught mail, and outbox gauges collected on scrape by one cheap query.
 */
export function createMetrics(deps: { store: Store; clock: Clock }): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const requests = new Counter({ name: "authsvc_http_requests_total", help: "HTTP requests by route pattern, method and status", labelNames: ["route", "method", "status"], registers: [registry] });
  const duration = new Histogram({
    name: "authsvc_http_request_duration_seconds", help: "HTTP request latency by route pattern, method and status",
    labelNames: ["route", "method", "status"], buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5], registers: [registry],
  });
  const signIns = new Counter({ name: "authsvc_sign_ins_total", help: "Sign-in attempts by method and outcome", labelNames: ["method", "outcome"], registers: [registry] });
  const rateLimited = new Counter({ name: "authsvc_rate_limited_total", help: "Requests refused by a rate limit, by bucket", labelNames: ["bucket"], registers: [registry] });
  const busy = new Counter({ name: "authsvc_database_busy_total", help: "Requests answered 503 because the database stayed busy", registers: [registry] });
  const unavailable = new Counter({ name: "authsvc_database_unavailable_total", help: "Requests answered 503 because the database was unreachable, read-only or full, by reason", labelNames: ["reason"], registers: [registry] });
  const outages = new Counter({ name: "authsvc_database_outages_total", help: "Database outages seen (unreachable, read-only, full, io), by reason", labelNames: ["reason"], registers: [registry] });
  // Gauges every process reads alike (the database's state) aggregate across a cluster's workers by max, not sum.
  const outageNow = new Gauge({ name: "authsvc_database_outage", help: "1 while a database outage of this reason is going on", labelNames: ["reason"], registers: [registry], aggregator: "max" });
  const caught = new Counter({ name: "authsvc_mail_caught_total", help: "Messages stored by the built-in mail catcher", registers: [registry] });
  const outbox = {
    pending: new Gauge({ name: "authsvc_outbox_pending", help: "Mail waiting in the outbox", registers: [registry], aggregator: "max" }),
    retrying: new Gauge({ name: "authsvc_outbox_retrying", help: "Pending mail that already failed at least one delivery attempt", registers: [registry], aggregator: "max" }),
    failed: new Gauge({ name: "authsvc_outbox_failed", help: "Mail the outbox gave up on", registers: [registry], aggregator: "max" }),
    oldestAge: new Gauge({ name: "authsvc_outbox_oldest_pending_age_seconds", help: "Age of the oldest pending mail (0 when none)", registers: [registry], aggregator: "max" }),
  };

  // Children are looked up once per (route, method, status) and kept: the per-request cost is
  // three Map lookups and two increments, with no label object or string built.
  const children = new Map<string, Map<string, Map<number, RequestChildren>>>();
  const childrenFor = (route: string, method: string, status: number): RequestChildren => {
    let byMethod = children.get(route);
    if (!byMethod) children.set(route, (byMethod = new Map()));
    let byStatus = byMethod.get(method);
    if (!byStatus) byMethod.set(method, (byStatus = new Map()));
    let c = byStatus.get(status);
    if (!c) {
      const labels = { route, method, status: String(status) };
      c = { count: requests.labels(labels), duration: duration.labels(labels) };
      byStatus.set(status, c);
    }
    return c;
  };

  const sink: MetricsSink = {
    enabled: true,
    observeRequest: (route, method, status, seconds) => {
      const c = childrenFor(route, method, status);
      c.count.inc();
      c.duration.observe(seconds);
    },
    signIn: (method, outcome) => signIns.labels(method, outcome).inc(),
    rateLimited: (bucket) => rateLimited.labels(bucket).inc(),
    databaseBusy: () => busy.inc(),
    databaseUnavailable: (reason) => unavailable.labels(reason).inc(),
    databaseOutage: (reason, active) => {
      if (active) outages.labels(reason).inc();
      outageNow.labels(reason).set(active ? 1 : 0);
    },
    mailCaught: () => caught.inc(),
  };

  const collectOutbox = async () => {
    const { rows } = await sql<{ status: string; n: number | string; oldest: number | string | null; retrying: number | string | null }>`
      select status, count(*) as n, min(created_at) as oldest, sum(case when attempts > 0 then 1 else 0 end) as retrying
      from mail_outbox where status in ('pending', 'failed') group by status`.execute(deps.store.db);
    const pending = rows.find((r) => r.status === "pending");
    outbox.pending.set(Number(pending?.n ?? 0));
    outbox.retrying.set(Number(pending?.retrying ?? 0));
    outbox.oldestAge.set(pending?.oldest != null ? Math.max(0, (deps.clock.now() - Number(pending.oldest)) / 1000) : 0);
    outbox.failed.set(Number(rows.find((r) => r.status === "failed")?.n ?? 0));
  };

  return {
    sink,
    render: async () => {
      // During a database outage a scrape must still work: its counters are what shows the outage.
      // The outbox gauges then keep their last values.
      await collectOutbox().catch(() => {});
      return { contentType: registry.contentType, body: await registry.metrics() };
    },
    json: async () => {
      await collectOutbox().catch(() => {});
      return registry.getMetricsAsJSON();
    },
  };
}
