import { connect } from "node:net";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testConfig } from "../../src/config.js";
import { ADMIN_PREFIX } from "../../src/http/admin/route.js";
import { tables } from "../../src/rooms.js";
import { createLogger } from "../../src/util/logger.js";
import { backends } from "../helpers/backends.js";
import { createTestApp, type TestApp } from "../helpers/test-app.js";

const { routes, adminRoutes, pages: pageRoutes } = tables;

/**
 * A hostile client against every endpoint, through the exact listener stack `serve` uses: bodies
 * over the limit (declared and chunked), bodies cut off mid-way, malformed and random input. The
 * server must answer each with a 4xx (or a 2xx where the input is merely odd), never a 5xx; it must
 * log no error (an error escaping a handler is logged, then answered 500 or swallowed); and no row
 * may change and no mail may be queued.
 */
const LIMIT = 4096;
// The tables whose rows are user-visible state (rate-limit counters and events are not).
const STATE_TABLES = ["users", "email_password_credentials", "third_party_identities", "verified_emails", "one_time_tokens", "sessions", "refresh_tokens", "mail_outbox"];

interface RawAnswer { status: number; text: string }

/** Sends raw bytes on a fresh socket and reads the answer; `hangUp` closes the sending side early. */
function raw(port: number, head: string, body: Buffer | string, opts: { hangUp?: boolean } = {}): Promise<RawAnswer | "no answer"> {
  return new Promise((resolve, reject) => {
    const s = connect(port, "127.0.0.1");
    let data = "";
    s.on("data", (d) => { data += d.toString("latin1"); });
    s.on("error", (e: NodeJS.ErrnoException) => (e.code === "ECONNRESET" || e.code === "EPIPE" ? undefined : reject(e)));
    s.on("close", () => {
      const m = /^HTTP\/1\.1 (\d{3})/.exec(data);
      resolve(m ? { status: Number(m[1]), text: data.slice(data.indexOf("\r\n\r\n") + 4) } : "no answer");
    });
    s.write(head + "\r\n");
    s.write(body, () => { if (opts.hangUp) s.destroy(); });
    s.setTimeout(10_000, () => s.destroy());
  });
}

/** A small seeded PRNG, so a failing case can be replayed. */
function prng(seed: number): () => number {
  return () => { seed = (seed * 1103515245 + 12345) & 0x7fffffff; return seed / 0x7fffffff; };
}

function randomValue(rnd: () => number, depth = 0): unknown {
  const pick = Math.floor(rnd() * 12);
  switch (pick) {
    case 0: return null;
    case 1: return rnd() < 0.5;
    case 2: return Math.floor(rnd() * 2 ** 53) * (rnd() < 0.5 ? -1 : 1);
    case 3: return "x".repeat(Math.floor(rnd() * 3000));
    case 4: return "\u0000\ud800\r\n<script>' OR 1=1 --";
    case 5: return "not-an-email@";
    case 6: return depth > 3 ? [] : Array.from({ length: Math.floor(rnd() * 4) }, () => randomValue(rnd, depth + 1));
    case 7: return depth > 3 ? {} : { id: randomValue(rnd, depth + 1), value: randomValue(rnd, depth + 1) };
    case 8: return [{ id: "email", value: randomValue(rnd, depth + 1) }, { id: "password", value: "short" }];
    case 9: return "1e999";
    case 10: return { $ne: null };
    default: return "";
  }
}

const ADMIN_KEY = "MH0VBGuKf4eW5_JRYi-BmwE-U0FSBHwPQdjCYFvoq68";
const CONFIG = { bodyLimit: LIMIT, adminApiKey: ADMIN_KEY, hostedPages: true };
/** Every route the server has: the public API, the admin API, the hosted and development pages. */
function everyRoute(): Array<{ method: string; path: string; admin?: boolean }> {
  const sample = (p: string) => p.replace(/:id\b/, "00000000-0000-4000-8000-000000000000").replace(/:handle\b/, "11111111-1111-4111-8111-111111111111").replace(/:thirdPartyId\b/, "github").replace(/:name\b/, "pages.css");
  return [
    ...routes.map((r) => ({ method: r.method, path: r.root ? r.path : `/auth${r.path}` })),
    ...adminRoutes.map((r) => ({ method: r.method, path: sample(ADMIN_PREFIX + r.path), admin: true })),
    // The inbox's live feed is an endless stream by design: it is not a request that ends.
    ...pageRoutes(testConfig(CONFIG)).filter((r) => !r.path.endsWith("/events")).map((r) => ({ method: r.method, path: sample(r.path) })),
  ];
}

const FIELDS = ["formFields", "token", "method", "thirdPartyId", "redirectURIInfo", "oAuthTokens", "clientType", "email", "password", "refreshToken"];

describe.each(backends)("a hostile client against every endpoint on $name", (backend) => {
  let t: TestApp;
  let port: number;
  const errors: string[] = [];
  const count = async () => {
    const out: Record<string, number> = {};
    for (const table of STATE_TABLES) {
      const r = await sql<{ n: number | string }>`select count(*) as n from ${sql.table(table)}`.execute(t.app.store.db);
      out[table] = Number(r.rows[0].n);
    }
    return out;
  };
  let before: Record<string, number>;

  beforeAll(async () => {
    const logger = createLogger("error", (line) => errors.push(line));
    t = await createTestApp({ backend, logger, config: CONFIG });
    port = Number(new URL(t.url).port);
    before = await count();
  });
  afterAll(async () => { await t?.close(); });

  const paths = everyRoute();
  const headOf = (method: string, path: string, extra: string[]) => [`${method} ${path} HTTP/1.1`, "host: 127.0.0.1", "content-type: application/json", ...extra, ""].join("\r\n");

  it.each(paths)("$method $path: over-limit, truncated and malformed bodies get 4xx, change nothing and log no error", async ({ method, path, admin }) => {
    const big = Buffer.alloc(LIMIT * 3, "a");
    // Admin routes are tried with the key: without it nothing past the guard would be reached.
    const head = (m: string, p: string, extra: string[]) => headOf(m, p, admin ? [`authorization: Bearer ${ADMIN_KEY}`, ...extra] : extra);
    const cases: Array<[string, Promise<RawAnswer | "no answer">, { mayHaveNoAnswer?: boolean }]> = [
      ["declared over the limit", raw(port, head(method, path, [`content-length: ${big.length}`, "connection: close"]), big), {}],
      ["chunked over the limit", raw(port, head(method, path, ["transfer-encoding: chunked", "connection: close"]), `${big.length.toString(16)}\r\n${big}\r\n0\r\n\r\n`), {}],
      ["chunked, endless", raw(port, head(method, path, ["transfer-encoding: chunked"]), `${big.length.toString(16)}\r\n${big}\r\n${big.length.toString(16)}\r\n${big}\r\n`), {}],
      ["truncated (declared 100, sent 10, hung up)", raw(port, head(method, path, ["content-length: 100"]), '{"formFiel', { hangUp: true }), { mayHaveNoAnswer: true }],
      ["truncated chunked, hung up", raw(port, head(method, path, ["transfer-encoding: chunked"]), "20\r\n{\"formFields\":[", { hangUp: true }), { mayHaveNoAnswer: true }],
      ["invalid JSON", raw(port, head(method, path, ["content-length: 12", "connection: close"]), "{formFields:"), {}],
      ["bad chunk framing", raw(port, head(method, path, ["transfer-encoding: chunked", "connection: close"]), "zz\r\nnope\r\n0\r\n\r\n"), {}],
    ];
    for (const [name, answer, opts] of cases) {
      const a = await answer;
      if (a === "no answer") {
        expect(opts.mayHaveNoAnswer ? "ok" : `${name}: no answer`).toBe("ok");
        continue;
      }
      expect({ name, status: a.status }).toEqual({ name, status: expect.any(Number) });
      expect(a.status, `${name}: ${a.text}`).toBeLessThan(500);
      // GET routes ignore a body; a POST must refuse it.
      if (method !== "GET") expect(a.status, name).toBeGreaterThanOrEqual(400);
    }
    const health = await fetch(`${t.url}/healthz`);
    expect(health.status).toBe(200);
    expect(errors).toEqual([]);
    expect(await count()).toEqual(before);
  });

  it("random JSON bodies and query strings on every endpoint: no 5xx, no error logged, nothing changed", async () => {
    const rnd = prng(backend.name === "sqlite" ? 1 : 2);
    for (let round = 0; round < 12; round++) {
      for (const { method, path, admin } of paths) {
        const body: Record<string, unknown> = {};
        for (const f of FIELDS) if (rnd() < 0.4) body[f] = randomValue(rnd);
        const query = FIELDS.filter(() => rnd() < 0.3).map((f) => `${f}=${encodeURIComponent(String(randomValue(rnd)).toWellFormed())}`).join("&") + (rnd() < 0.2 ? "&email=%ff%fe%00" : "");
        const res = await fetch(`${t.url}${path}?${query}`, {
          method,
          headers: { "content-type": "application/json", rid: rnd() < 0.5 ? "emailpassword" : "thirdparty", "st-auth-mode": rnd() < 0.5 ? "header" : "cookie", authorization: admin && rnd() < 0.7 ? `Bearer ${ADMIN_KEY}` : rnd() < 0.3 ? `Bearer ${Buffer.from(String(randomValue(rnd))).toString("latin1")}`.replace(/[\r\n\0]/g, "").slice(0, 2000) : "" },
          body: method === "GET" ? undefined : JSON.stringify(body),
        });
        const text = await res.text();
        expect(res.status, `${method} ${path} round ${round}: ${text}`).toBeLessThan(500);
      }
    }
    expect(errors).toEqual([]);
    expect(await count()).toEqual(before);
  }, 120_000); // twelve rounds over every endpoint, one request at a time: more endpoints, more time
});
