// The load generator, run as its own process so it never shares the server's event loop.
// Usage: node scripts/bench-lib/load.mjs '<json spec>'  → prints one JSON result on stdout.
// spec: { mode: "throughput" | "latency", url, kind: "get" | "hello" | "page" | "signin" | "signup" | "refresh" | "token",
//         connections, seconds, warmupSeconds, access?, email?, password?, refreshTokens?, rate?, basic?, form? }
import { Agent, request } from "node:http";
import autocannon from "autocannon";

const spec = JSON.parse(process.argv[2]);
const json = { "content-type": "application/json" };
const creds = (email) => JSON.stringify({ formFields: [{ id: "email", value: email }, { id: "password", value: spec.password }] });
let signups = 0;

/** The request(s) one connection sends, with per-connection state for refresh rotation. */
function requestsFor(kind) {
  switch (kind) {
    case "hello": return [{ method: "GET", path: "/" }];
    case "page": return [{ method: "GET", path: spec.path, headers: spec.headers ?? {} }];
    case "get": return [{ method: "GET", path: "/auth/user/email/verify", headers: { authorization: `Bearer ${spec.access}` } }];
    case "signin": return [{ method: "POST", path: "/auth/signin", headers: { ...json, "st-auth-mode": "header" }, setupRequest: (req) => ({ ...req, body: creds(pickEmail()) }) }];
    case "signup": return [{ method: "POST", path: "/auth/signup", headers: { ...json, "st-auth-mode": "header" }, setupRequest: (req) => ({ ...req, body: creds(`load-${process.pid}-${Date.now()}-${signups++}@example.com`) }) }];
    // The OAuth token endpoint: a confidential client's client-credentials request (spec.basic, spec.form).
    case "token": return [{ method: "POST", path: "/oauth/token", headers: { authorization: spec.basic, "content-type": "application/x-www-form-urlencoded" }, body: spec.form }];
    case "refresh": {
      // Every refresh rotates the token. autocannon resets a connection's context after each request,
      // so tokens are checked out of a pool for one request and the rotated one is put back.
      return [{
        method: "POST", path: "/auth/session/refresh",
        setupRequest: (req, context) => {
          context.token = pool.shift();
          return { ...req, headers: { ...req.headers, "st-auth-mode": "header", authorization: `Bearer ${context.token}` } };
        },
        onResponse: (status, body, context, headers) => {
          const fresh = status === 200 ? headersOf(headers)["st-refresh-token"] : undefined;
          pool.push(fresh ?? context.token);
        },
      }];
    }
    default: throw new Error(`unknown kind ${kind}`);
  }
}
const pool = [...(spec.refreshTokens ?? [])];
// autocannon hands response headers over as a flat [name, value, name, value…] array.
function headersOf(raw) {
  const out = {};
  if (Array.isArray(raw)) for (let i = 0; i + 1 < raw.length; i += 2) out[String(raw[i]).toLowerCase()] = String(raw[i + 1]);
  else for (const [k, v] of Object.entries(raw ?? {})) out[k.toLowerCase()] = String(v);
  return out;
}
function pickEmail() {
  if (!spec.users) return spec.email;
  return `user${Math.floor(Math.random() * spec.users)}@example.com`;
}

async function throughput() {
  const base = { url: spec.url, connections: spec.connections, pipelining: 1, requests: requestsFor(spec.kind) };
  if (spec.warmupSeconds > 0) {
    await autocannon({ ...base, duration: spec.warmupSeconds });
    // Requests cut off by the warm-up's end are still being served: let them drain first.
    await new Promise((r) => setTimeout(r, spec.drainMs ?? 200));
  }
  const r = await autocannon({ ...base, duration: spec.seconds });
  return {
    rps: r.requests.total / r.duration, total: r.requests.total, non2xx: r.non2xx, errors: r.errors, timeouts: r.timeouts,
    p50ms: r.latency.p50, p99ms: r.latency.p99, tokens: spec.kind === "refresh" ? pool : undefined,
  };
}

// Latency: autocannon's histogram has whole-millisecond resolution, too coarse for a sub-millisecond
// p99, so this mode times each request itself, at a fixed pace that does not saturate the server.
async function latency() {
  const u = new URL(spec.url);
  const agent = new Agent({ keepAlive: true, maxSockets: spec.connections });
  const req = requestsFor(spec.kind)[0];
  const once = () => new Promise((resolve, reject) => {
    const r = request({ host: u.hostname, port: u.port, method: req.method, path: req.path, headers: req.headers, agent }, (res) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode));
    });
    r.on("error", reject);
    r.end();
  });
  const interval = spec.connections / spec.rate * 1000; // ms between requests of one connection
  const run = async (seconds, samples) => {
    const end = performance.now() + seconds * 1000;
    let bad = 0;
    await Promise.all(Array.from({ length: spec.connections }, async (_, i) => {
      let next = performance.now() + (i * interval) / spec.connections;
      while (performance.now() < end) {
        const wait = next - performance.now();
        if (wait > 0) await new Promise((r) => setTimeout(r, wait));
        next += interval;
        const t0 = performance.now();
        const status = await once();
        samples?.push(performance.now() - t0);
        if (status !== 200) bad++;
      }
    }));
    return bad;
  };
  await run(spec.warmupSeconds);
  const samples = [];
  const non2xx = await run(spec.seconds, samples);
  agent.destroy();
  samples.sort((a, b) => a - b);
  const q = (p) => samples[Math.min(samples.length - 1, Math.floor(p * samples.length))];
  return { total: samples.length, non2xx, p50ms: q(0.5), p99ms: q(0.99), p999ms: q(0.999), maxms: samples.at(-1) };
}

process.stdout.write(JSON.stringify(spec.mode === "latency" ? await latency() : await throughput()));
