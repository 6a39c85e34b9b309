// The SuperTokens CDI (docs/supertokens-core.md): a real supertokens-node 24 Express app
// (test/fixtures/cdi/express-app.mjs) whose core is authsvc, measured through the app as its users
// reach it. `verifySession` with `checkDatabase` (one CDI call per request) and a refresh (one CDI
// call), against the same app's own request overhead alone (a route with no session) and a
// `verifySession` the SDK decides locally, in the same run.
// Alone: node scripts/bench/cdi.mjs [--quick]
import { execFileSync, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath, pathToFileURL } from "node:url";
import { startAuthsvc } from "../bench-lib/servers.mjs";

const root = fileURLToPath(new URL("../..", import.meta.url));
const KEY = randomBytes(32).toString("base64url");
const PASSWORD = "a long benchmark passphrase 42";

export default async function run({ quick = false, log = () => {} } = {}) {
  if (!existsSync(join(root, "dist/cli.mjs"))) execFileSync(process.execPath, ["scripts/build.mjs"], { cwd: root, stdio: "ignore" });
  const dir = mkdtempSync(join(tmpdir(), "authsvc-bench-cdi-"));
  const authsvc = await startAuthsvc(join(dir, "cdi.db"), { bcryptCost: 8, env: { AUTHSVC_CDI_API_KEY: KEY } });
  const app = spawn(process.execPath, [join(root, "test/fixtures/cdi/express-app.mjs")], { env: { ...process.env, CDI_URI: `${authsvc.url}/cdi`, CDI_API_KEY: KEY, OIDC_ISSUER: "http://127.0.0.1:9" }, stdio: ["ignore", "pipe", "inherit"] });
  try {
    const line = await new Promise((ok) => createInterface({ input: app.stdout }).once("line", ok));
    const url = `http://127.0.0.1:${JSON.parse(line).port}`;
    const tokens = await signedInAndVerified(url);
    const seconds = quick ? 1 : 5, connections = 10;
    const auth = { authorization: `Bearer ${tokens.access}` };
    log("cdi: the app's overhead, a local verifySession, verifySession with checkDatabase");
    for (const path of ["/_test/ping", "/me", "/me-db"]) await throughput(url + path, auth, quick ? 0.5 : 2, connections); // warm-up
    const ping = await throughput(`${url}/_test/ping`, {}, seconds, connections);
    const local = await throughput(`${url}/me`, auth, seconds, connections);
    const db = await throughput(`${url}/me-db`, auth, seconds, connections);
    log("cdi: refreshes in a chain, against the app's overhead one request at a time");
    const n = quick ? 50 : 300;
    const pingLatency = await sequential(n, () => fetch(`${url}/_test/ping`));
    const dbLatency = await sequential(n, () => fetch(`${url}/me-db`, { headers: auth }));
    // authsvc's share: the same verify straight to the CDI, as the SDK sends it.
    const direct = JSON.stringify({ accessToken: tokens.access, doAntiCsrfCheck: false, enableAntiCsrf: false, checkDatabase: true });
    const cdiLatency = await sequential(n, () => fetch(`${authsvc.url}/cdi/recipe/session/verify`, { method: "POST", headers: { "api-key": KEY, "cdi-version": "5.4", "content-type": "application/json" }, body: direct }));
    let refreshToken = tokens.refresh;
    const refreshLatency = await sequential(n, async () => {
      const res = await fetch(`${url}/auth/session/refresh`, { method: "POST", headers: { authorization: `Bearer ${refreshToken}`, "st-auth-mode": "header" } });
      if (res.status !== 200) throw new Error(`refresh answered ${res.status}`);
      refreshToken = res.headers.get("st-refresh-token");
      return res;
    });
    const r = (x) => Math.round(x * 10) / 10;
    return [
      { scenario: "CDI through supertokens-node", figure: "the app alone (no session), req/s", value: r(ping), unit: "req/s" },
      { scenario: "CDI through supertokens-node", figure: "verifySession (local, no core call), req/s", value: r(local), unit: "req/s", ratio: r(local / ping) },
      { scenario: "CDI through supertokens-node", figure: "verifySession with checkDatabase (one CDI call), req/s", value: r(db), unit: "req/s", ratio: r(db / ping) },
      { scenario: "CDI through supertokens-node", figure: "the app alone, one request at a time, median", value: r(median(pingLatency)), unit: "ms" },
      { scenario: "CDI through supertokens-node", figure: "verifySession with checkDatabase, one at a time, median", value: r(median(dbLatency)), unit: "ms" },
      { scenario: "CDI through supertokens-node", figure: "POST /cdi/recipe/session/verify straight to authsvc, one at a time, median", value: r(median(cdiLatency)), unit: "ms" },
      { scenario: "CDI through supertokens-node", figure: "refresh (one CDI call, a write), one at a time, median", value: r(median(refreshLatency)), unit: "ms" },
    ];
  } finally {
    app.kill("SIGTERM");
    await authsvc.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Signs up through the app, proves the address with the app's mail, and returns header-mode tokens with st-ev true. */
async function signedInAndVerified(url) {
  const email = "bench-cdi@example.com";
  const up = await fetch(`${url}/auth/signup`, { method: "POST", headers: { "content-type": "application/json", "st-auth-mode": "header", rid: "emailpassword" }, body: JSON.stringify({ formFields: [{ id: "email", value: email }, { id: "password", value: PASSWORD }] }) });
  const auth = (access) => ({ authorization: `Bearer ${access}`, "st-auth-mode": "header" });
  let access = up.headers.get("st-access-token");
  const refresh = up.headers.get("st-refresh-token");
  await fetch(`${url}/auth/user/email/verify/token`, { method: "POST", headers: auth(access) });
  const mails = await (await fetch(`${url}/_test/mails`)).json();
  const token = new URL(mails.at(-1).emailVerifyLink).searchParams.get("token");
  await fetch(`${url}/auth/user/email/verify`, { method: "POST", headers: { ...auth(access), "content-type": "application/json" }, body: JSON.stringify({ method: "token", token }) });
  const check = await fetch(`${url}/auth/user/email/verify`, { headers: auth(access) });
  access = check.headers.get("st-access-token") ?? access;
  const me = await fetch(`${url}/me-db`, { headers: auth(access) });
  if (me.status !== 200) throw new Error(`the verified session is refused: ${me.status}`);
  return { access, refresh };
}

/** Requests per second over `seconds` with `connections` loops each awaiting its answer. */
async function throughput(target, headers, seconds, connections) {
  const until = performance.now() + seconds * 1000;
  let done = 0;
  await Promise.all(Array.from({ length: connections }, async () => {
    while (performance.now() < until) {
      const res = await fetch(target, { headers });
      if (res.status !== 200) throw new Error(`${target} answered ${res.status}`);
      await res.arrayBuffer();
      done++;
    }
  }));
  return done / seconds;
}

async function sequential(n, once) {
  const times = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    const res = await once();
    await res.arrayBuffer();
    times.push(performance.now() - t0);
  }
  return times;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const out = await run({ quick: process.argv.includes("--quick"), log: console.error });
  console.log(JSON.stringify(out, null, 2));
}
