// What webhooks cost a sign-in: POST /auth/signin p50 with three webhook endpoints subscribed to every
// event (one answering at once, one answering after 2 s, one dead: connection refused) vs none, on
// one SQLite file each, in the same run. The deliveries go out from the queue worker after commit;
// the sign-in only writes their rows in its transaction. Short batches alternate none/three and the
// medians of all samples are compared, to cancel drift on a shared machine.
// Usage: node scripts/build.mjs && node scripts/bench/webhooks.mjs [--quick]
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { creds, load, median, startServer } from "./limits.mjs";

/** A receiver on loopback that answers 204 after `delayMs`; counts what it got. */
async function startReceiver(delayMs) {
  const server = createServer((req, res) => {
    server.got++;
    req.resume();
    req.on("end", () => setTimeout(() => res.writeHead(204).end(), delayMs));
  });
  server.got = 0;
  await new Promise((ok) => server.listen(0, "127.0.0.1", ok));
  return { server, url: `http://127.0.0.1:${server.address().port}/hooks` };
}

export default async function run({ quick = false, log = () => {} } = {}) {
  const batches = quick ? 4 : 10;
  const signins = quick ? 20 : 30;
  const workers = 2;
  const dir = mkdtempSync(join(tmpdir(), "authsvc-bench-webhooks-"));
  const fast = await startReceiver(0);
  const slow = await startReceiver(2000);
  const dead = await startReceiver(0);
  const deadUrl = dead.url;
  await new Promise((ok) => dead.server.close(ok)); // nothing listens there now
  const secret = `whsec_${Buffer.alloc(32, 5).toString("base64")}`;
  const endpoints = [fast.url, slow.url, deadUrl].map((url) => ({ url, secret, events: "*" }));
  const variants = {
    none: { flags: [], env: {} },
    three: { flags: [], env: { AUTHSVC_WEBHOOKS: JSON.stringify(endpoints) } },
  };
  const servers = {};
  const latencies = { none: [], three: [] };
  try {
    for (const [name, v] of Object.entries(variants)) {
      const s = await startServer(dir, name, ["--limit-signin-ip", "1000000000/1h", "--limit-signup-ip", "1000000000/1h"], v.env);
      servers[name] = s;
      for (let i = 0; i < workers; i++) {
        const up = await s.call("POST", "/auth/signup", { "st-auth-mode": "header" }, creds(i));
        if (up.status !== 200) throw new Error(`sign-up failed: ${up.status} ${up.text}`);
      }
    }
    for (let b = 0; b < batches; b++) {
      for (const name of b % 2 ? ["three", "none"] : ["none", "three"]) {
        const s = servers[name];
        const r = await load(signins, workers, (w) => s.call("POST", "/auth/signin", { "st-auth-mode": "header" }, creds(w)));
        latencies[name].push(...r.latencies);
        log(`webhooks ${name} batch ${b + 1}: sign-in p50 ${median(r.latencies).toFixed(1)} ms`);
      }
    }
    log(`deliveries received meanwhile: fast ${fast.server.got}, slow ${slow.server.got}`);
  } finally {
    for (const s of Object.values(servers)) await s.stop();
    for (const r of [fast, slow]) { r.server.closeAllConnections(); r.server.close(); }
    rmSync(dir, { recursive: true, force: true });
  }
  const three = median(latencies.three);
  const none = median(latencies.none);
  return [
    { scenario: "POST /auth/signin with three webhook endpoints (one fast, one 2 s slow, one dead) (ceiling: none; target ratio ≤ 1.05)", figure: "p50", value: +three.toFixed(2), unit: "ms", ceiling: "same, no endpoints", ceilingValue: +none.toFixed(2), ratio: +(three / none).toFixed(3) },
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(JSON.stringify(await run({ quick: process.argv.includes("--quick"), log: console.error }), null, 2));
