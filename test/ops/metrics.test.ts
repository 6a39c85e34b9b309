import parsePrometheusTextFormat from "parse-prometheus-text-format";
import { afterEach, describe, expect, it } from "vitest";
import { backends, sqliteBackend } from "../helpers/backends.js";
import { credentials, postJson } from "../helpers/session-client.js";
import { createTestApp, type TestApp } from "../helpers/test-app.js";
import type { Config } from "../../src/config.js";
import { waitForCaughtMail } from "../helpers/mail.js";
import { killChild, startServe } from "./serve-child.js";

const cleanup: Array<() => Promise<void> | void> = [];
afterEach(async () => { while (cleanup.length) await cleanup.pop()!(); });

async function app(backend: (typeof backends)[number], config: Partial<Config>, start = false): Promise<TestApp> {
  const t = await createTestApp({ backend, config, start });
  cleanup.push(() => t.close());
  return t;
}

async function scrape(url: string) {
  const res = await fetch(url);
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
  const text = await res.text();
  const families = parsePrometheusTextFormat(text);
  const family = (name: string) => families.find((f) => f.name === name);
  const value = (name: string, labels: Record<string, string> = {}) =>
    Number(family(name)?.metrics.find((m) => Object.entries(labels).every(([k, v]) => m.labels?.[k] === v))?.value ?? NaN);
  return { text, families, family, value };
}

describe.each(backends)("/metrics on $name", (backend) => {
  it("is off by default: /metrics is 404", async () => {
    const t = await app(backend, {});
    const res = await fetch(`${t.url}/metrics`);
    expect(res.status).toBe(404);
  });

  it("with --metrics: Prometheus text that parses, counting sign-ins by outcome and requests by route pattern and status", async () => {
    const t = await app(backend, { metrics: true });
    await postJson(`${t.url}/auth/signup`, credentials("ada@example.com"));
    await postJson(`${t.url}/auth/signin`, credentials("ada@example.com"));
    await postJson(`${t.url}/auth/signin`, credentials("ada@example.com", "wrong password here"));
    await postJson(`${t.url}/auth/signin`, credentials("ada@example.com", "another wrong one"));
    await fetch(`${t.url}/no/such/path/${"x".repeat(20)}`);
    const m = await scrape(`${t.url}/metrics`);
    expect(m.value("authsvc_sign_ins_total", { method: "emailpassword", outcome: "success" })).toBe(1);
    expect(m.value("authsvc_sign_ins_total", { method: "emailpassword", outcome: "wrong_credentials" })).toBe(2);
    expect(m.value("authsvc_http_requests_total", { route: "/auth/signin", method: "POST", status: "200" })).toBe(3);
    expect(m.value("authsvc_http_requests_total", { route: "/auth/signup", method: "POST", status: "200" })).toBe(1);
    // Unknown paths share one label: a scanner cannot grow the registry.
    expect(m.value("authsvc_http_requests_total", { route: "unmatched", method: "GET", status: "404" })).toBe(1);
    expect(JSON.stringify(m.family("authsvc_http_requests_total"))).not.toContain("/no/such/path");
    const hist = m.family("authsvc_http_request_duration_seconds")!;
    expect(hist.type).toBe("HISTOGRAM");
    // (The parser folds labelled histograms into one sample, so the per-route count is read from the text.)
    expect(m.text).toMatch(/^authsvc_http_request_duration_seconds_count\{route="\/auth\/signin",method="POST",status="200"\} 3$/m);
    // Process metrics from prom-client's defaults.
    expect(m.family("process_cpu_user_seconds_total")).toBeDefined();
    expect(m.family("nodejs_eventloop_lag_seconds")).toBeDefined();
  });

  it("reports the outbox depth and the age of its oldest message, read at scrape time", async () => {
    const t = await app(backend, { metrics: true });
    let m = await scrape(`${t.url}/metrics`);
    expect(m.value("authsvc_outbox_pending")).toBe(0);
    expect(m.value("authsvc_outbox_oldest_pending_age_seconds")).toBe(0);
    await postJson(`${t.url}/auth/user/password/reset/token`, { formFields: [{ id: "email", value: "nobody@example.com" }] });
    await postJson(`${t.url}/auth/signup`, credentials("ada@example.com"));
    await postJson(`${t.url}/auth/user/password/reset/token`, { formFields: [{ id: "email", value: "ada@example.com" }] });
    t.clock.advance(90_000);
    m = await scrape(`${t.url}/metrics`);
    expect(m.value("authsvc_outbox_pending")).toBe(1); // no worker runs in this app: the reset mail waits
    expect(m.value("authsvc_outbox_oldest_pending_age_seconds")).toBe(90);
    expect(m.value("authsvc_outbox_failed")).toBe(0);
  });

  it("counts rate-limit refusals by bucket and busy-database 503s through the sink core and http call, and caught mail", async () => {
    const t = await app(backend, { metrics: true, mailCatcher: true, mailCatcherPort: 0 }, true);
    // The rate limiter (refuse() in core/limits.ts) and the busy path report through ctx.metrics.
    t.app.ctx.metrics.rateLimited("signin");
    t.app.ctx.metrics.rateLimited("signin");
    t.app.ctx.metrics.rateLimited("signup");
    t.app.ctx.metrics.databaseBusy();
    await postJson(`${t.url}/auth/signup`, credentials("ada@example.com"));
    await postJson(`${t.url}/auth/user/password/reset/token`, { formFields: [{ id: "email", value: "ada@example.com" }] });
    await waitForCaughtMail(t.app, "ada@example.com");
    // The catcher has the mail a moment before the worker records it as sent (its commit follows the
    // SMTP answer): scrape until the outbox is empty, for up to 5 s.
    let m = await scrape(`${t.url}/metrics`);
    for (let i = 0; i < 100 && m.value("authsvc_outbox_pending") !== 0; i++) {
      await new Promise((r) => setTimeout(r, 50));
      m = await scrape(`${t.url}/metrics`);
    }
    expect(m.value("authsvc_rate_limited_total", { bucket: "signin" })).toBe(2);
    expect(m.value("authsvc_rate_limited_total", { bucket: "signup" })).toBe(1);
    expect(m.value("authsvc_database_busy_total")).toBe(1);
    expect(m.value("authsvc_mail_caught_total")).toBe(1);
    expect(m.value("authsvc_outbox_pending")).toBe(0);
  });

  it("with --metrics-port: served on a listener of its own, and not on the API port", async () => {
    const t = await app(backend, { metricsPort: 0 }, true);
    const where = t.app.ops.metricsServer()!;
    expect(where.host).toBe("127.0.0.1");
    expect((await fetch(`${t.url}/metrics`)).status).toBe(404);
    await postJson(`${t.url}/auth/signin`, credentials("nobody@example.com"));
    const m = await scrape(`http://127.0.0.1:${where.port}/metrics`);
    expect(m.value("authsvc_sign_ins_total", { method: "emailpassword", outcome: "wrong_credentials" })).toBe(1);
    expect((await fetch(`http://127.0.0.1:${where.port}/auth/signin`)).status).toBe(404);
  });
});

describe("metrics in the built server", () => {
  it("`serve --metrics-port 0` names the metrics address in its banner and serves it there", async () => {
    const db = await sqliteBackend.create();
    cleanup.push(db.drop);
    const s = await startServe(["--database", db.url, "--metrics-port", "0"], cleanup);
    const line = /metrics: {4}http:\/\/127\.0\.0\.1:(\d+)\/metrics {2}\(a listener of its own\)/;
    while (!line.test(s.banner())) await new Promise((r) => setTimeout(r, 20)); // the banner's later lines
    const port = Number(line.exec(s.banner())![1]);
    expect(port).toBeGreaterThan(0);
    const m = await scrape(`http://127.0.0.1:${port}/metrics`);
    expect(m.family("authsvc_http_requests_total")).toBeDefined();
    expect((await fetch(`http://127.0.0.1:${s.port}/metrics`)).status).toBe(404);
    await killChild(s.child, "SIGTERM");
  });

  it("in production, --metrics on the API port warns in the banner that the endpoint is public", async () => {
    const db = await sqliteBackend.create();
    cleanup.push(db.drop);
    const env = { AUTHSVC_PUBLIC_URL: "https://auth.example.com", AUTHSVC_SMTP_URL: "smtp://127.0.0.1:1", AUTHSVC_SECRET: "s".repeat(40), AUTHSVC_MAIL_FROM: "Example <no-reply@example.com>", AUTHSVC_WEBSITE_URL: "https://app.example.com" };
    const s = await startServe(["--database", db.url, "--production", "--host", "127.0.0.1", "--bcrypt-cost", "10", "--metrics"], cleanup, env);
    const warning = /WARNING: \/metrics is served on the public API port: block it at your proxy, or move it with --metrics-port/;
    while (!warning.test(s.banner())) await new Promise((r) => setTimeout(r, 20));
    expect((await fetch(`http://127.0.0.1:${s.port}/metrics`)).status).toBe(200);
    await killChild(s.child, "SIGTERM");
  });
});
