import { readdirSync, readFileSync, readlinkSync } from "node:fs";
import { Agent, request } from "node:http";
import { connect } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { backends } from "../helpers/backends.js";
import { runBin, spawnBin } from "../helpers/bin.js";
import { runCli } from "../helpers/cli.js";
import { signUpUntilKilled } from "../helpers/signup-flood.js";
import { startReceiver } from "../helpers/webhook-receiver.js";

// `serve --workers 2` as users run it (the built bin/authsvc): a primary and two HTTP workers on
// one port. Each test holds one keep-alive connection per worker and checks, through the kernel's
// socket table, which process answers it, so "a request to each worker" is a fact, not a hope.

const PW = "correct horse battery staple";

type Child = ReturnType<typeof spawnBin>;

interface Answer { status: number; headers: Record<string, string | string[] | undefined>; body: Record<string, unknown>; localPort: number }

/** One keep-alive TCP connection to the server; every request goes down it (so to one worker). */
function connection(port: number) {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const call = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => new Promise<Answer>((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const req = request({ host: "127.0.0.1", port, path, method, agent, headers: { ...(payload ? { "content-type": "application/json" } : {}), ...headers } }, (res) => {
      let text = "";
      const localPort = res.socket?.localPort ?? 0; // read now: at "end" a keep-alive socket is back in the agent
      res.on("data", (c) => { text += c; });
      res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body: text.startsWith("{") ? JSON.parse(text) : { text }, localPort }));
    });
    req.on("error", reject);
    req.end(payload);
  });
  return { call, close: () => agent.destroy() };
}

/** The child processes of `pid` (the HTTP workers of a primary). */
function childrenOf(pid: number): number[] {
  return readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim().split(/\s+/).filter(Boolean).map(Number);
}

/** How many threads of process `pid` run at nice 10: its password-hashing threads (core/hash-pool.ts). */
function hashingThreads(pid: number): number {
  let n = 0;
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, "utf8");
      if (stat.slice(stat.lastIndexOf(")") + 2).split(" ")[16] === "10") n++;
    } catch { /* a thread that ended since the listing */ }
  }
  return n;
}

/** The pid among `pids` that holds the server side of the TCP connection from local port `clientPort` to `serverPort`. */
function ownerOf(serverPort: number, clientPort: number, pids: number[]): number | undefined {
  const hex = (n: number) => n.toString(16).toUpperCase().padStart(4, "0");
  let inode: string | undefined;
  for (const table of ["/proc/net/tcp", "/proc/net/tcp6"]) {
    for (const line of readFileSync(table, "utf8").split("\n").slice(1)) {
      const f = line.trim().split(/\s+/);
      if (f.length > 9 && f[1].endsWith(`:${hex(serverPort)}`) && f[2].endsWith(`:${hex(clientPort)}`)) inode = f[9];
    }
  }
  if (!inode) return undefined;
  return pids.find((pid) => readdirSync(`/proc/${pid}/fd`).some((fd) => { try { return readlinkSync(`/proc/${pid}/fd/${fd}`) === `socket:[${inode}]`; } catch { return false; } }));
}

/**
 * Resolves with the port once every worker listens: the banner comes when the first does, and
 * /readyz counts the workers that answer.
 */
async function listeningPort(child: Child): Promise<number> {
  const port = await bannerPort(child);
  await until(async () => {
    const ready = await fetch(`http://127.0.0.1:${port}/readyz`).then((r) => r.json() as Promise<{ workers?: { ready: number; total: number } }>, () => undefined);
    return ready?.workers !== undefined && ready.workers.ready === ready.workers.total;
  }, "every worker to listen", 60_000);
  return port;
}

/** Resolves with the port once the banner (printed when the first worker listens) says where. */
function bannerPort(child: Child): Promise<number> {
  let seen = "";
  return new Promise((resolve, reject) => {
    child.stderr!.on("data", (d) => {
      seen += d;
      const m = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(seen);
      if (m && seen.includes("workers:")) resolve(Number(m[1]));
    });
    child.on("close", (code) => reject(new Error(`serve exited (${code}) before listening:\n${seen}`)));
  });
}

const signUpBody = (email: string) => ({ formFields: [{ id: "email", value: email }, { id: "password", value: PW }] });
const headerMode = { "st-auth-mode": "header", rid: "emailpassword" };

async function until(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe.each(backends)("serve --workers 2 on $name", { timeout: 120_000 }, (backend) => {
  const cleanup: Array<() => Promise<void> | void> = [];
  afterEach(async () => {
    while (cleanup.length) await cleanup.pop()!();
  });

  async function start(extra: string[] = [], env: Record<string, string> = {}) {
    const db = await backend.create();
    cleanup.push(db.drop);
    const child = spawnBin(["serve", "--workers", "2", "--port", "0", "--mail-catcher-port", "0", "--database", db.url, ...extra], { env: { AUTHSVC_LOG_LEVEL: "info", ...env } });
    cleanup.push(() => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      for (const pid of childrenOf(child.pid!)) { try { process.kill(pid, "SIGKILL"); } catch { /* gone */ } }
      child.kill("SIGKILL");
    });
    const port = await listeningPort(child);
    return { child, port, db: db.url };
  }

  /** Two connections served by two different workers (retrying a new connection until they differ). */
  async function oneConnectionPerWorker(child: Child, port: number) {
    const workers = childrenOf(child.pid!);
    expect(workers).toHaveLength(2);
    const a = connection(port);
    cleanup.push(a.close);
    const ownerA = ownerOf(port, (await a.call("GET", "/healthz")).localPort, workers);
    for (let tries = 0; tries < 10; tries++) {
      const b = connection(port);
      cleanup.push(b.close);
      const ownerB = ownerOf(port, (await b.call("GET", "/healthz")).localPort, workers);
      if (ownerA !== undefined && ownerB !== undefined && ownerA !== ownerB) return { a, b, workers };
      b.close();
    }
    throw new Error("no two connections were served by different workers");
  }

  it("each worker sees the other's writes at once: sign-up, sign-in, sessions, sign-out, keys, limits and one mail per request", async () => {
    const { child, port } = await start(["--limit-signup-ip", "3/1h"]);
    const { a, b } = await oneConnectionPerWorker(child, port);

    // Sign up on A, sign in on B at once.
    expect((await a.call("POST", "/auth/signup", signUpBody("ada@example.com"), headerMode)).body.status).toBe("OK");
    const signIn = await b.call("POST", "/auth/signin", signUpBody("ada@example.com"), headerMode);
    expect(signIn.body.status).toBe("OK");
    const access = signIn.headers["st-access-token"] as string;
    const refresh = signIn.headers["st-refresh-token"] as string;

    // The session B made works on A (same signing keys, same session row); both publish the same keys.
    const auth = { authorization: `Bearer ${access}` };
    expect((await a.call("GET", "/auth/user/email/verify", undefined, auth)).status).toBe(200);
    expect((await b.call("GET", "/auth/user/email/verify", undefined, auth)).status).toBe(200);
    expect((await a.call("GET", "/auth/jwt/jwks.json")).body).toEqual((await b.call("GET", "/auth/jwt/jwks.json")).body);

    // Sign out on A: B refuses the session at once (its row is revoked), and its refresh token too.
    expect((await a.call("POST", "/auth/signout", undefined, auth)).status).toBe(200);
    expect((await b.call("GET", "/auth/user/email/verify", undefined, auth)).status).toBe(401);
    expect((await b.call("POST", "/auth/session/refresh", undefined, { authorization: `Bearer ${refresh}` })).status).toBe(401);

    // One budget of 3 sign-ups per IP across both workers (ada used one on A).
    expect((await b.call("POST", "/auth/signup", signUpBody("bob@example.com"), headerMode)).status).toBe(200);
    expect((await a.call("POST", "/auth/signup", signUpBody("cy@example.com"), headerMode)).status).toBe(200);
    expect((await b.call("POST", "/auth/signup", signUpBody("dee@example.com"), headerMode)).status).toBe(429);
    expect((await a.call("POST", "/auth/signup", signUpBody("dee@example.com"), headerMode)).status).toBe(429);

    // One reset request on each worker: exactly one mail each, delivered by the primary's outbox.
    for (const [conn, email] of [[a, "bob@example.com"], [b, "cy@example.com"]] as const) {
      expect((await conn.call("POST", "/auth/user/password/reset/token", { formFields: [{ id: "email", value: email }] }, { rid: "emailpassword" })).body.status).toBe("OK");
    }
    const inbox = async (to: string) => ((await a.call("GET", `/_dev/mail/messages?to=${encodeURIComponent(to)}`)).body.messages as unknown[]).length;
    await until(async () => (await inbox("bob@example.com")) === 1 && (await inbox("cy@example.com")) === 1, "both reset mails");
    await new Promise((r) => setTimeout(r, 1500)); // an outbox running twice would have sent its copy by now
    expect([await inbox("bob@example.com"), await inbox("cy@example.com")]).toEqual([1, 1]);

    child.kill("SIGTERM");
    const r = await child.result;
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr.match(/"msg":"mail catcher listening"/g)).toHaveLength(1);
  });

  it("hashes every worker's passwords on the primary's threads, all of them open to one worker's sign-ups", async () => {
    const { child, port } = await start(["--hash-threads", "2"], { AUTHSVC_BCRYPT_COST: "10" });
    const workers = childrenOf(child.pid!);
    // Two connections the kernel gave the same worker (a proxy's few keep-alive connections often are).
    const byOwner = new Map<number, Array<ReturnType<typeof connection>>>();
    let pairOnOne: Array<ReturnType<typeof connection>> | undefined;
    for (let tries = 0; tries < 20 && !pairOnOne; tries++) {
      const c = connection(port);
      cleanup.push(c.close);
      const owner = ownerOf(port, (await c.call("GET", "/healthz")).localPort, workers)!;
      byOwner.set(owner, [...(byOwner.get(owner) ?? []), c]);
      if (byOwner.get(owner)!.length === 2) pairOnOne = byOwner.get(owner);
    }
    expect(pairOnOne).toBeDefined();
    const answers = await Promise.all(pairOnOne!.map((c, i) => c.call("POST", "/auth/signup", signUpBody(`hash-${i}@example.com`), headerMode)));
    expect(answers.map((x) => x.body.status)).toEqual(["OK", "OK"]);
    // The hashing threads are the ones at nice 10: both of the primary's ran (the two hashes
    // overlapped), and no worker started one of its own.
    expect(hashingThreads(child.pid!)).toBe(2);
    expect(workers.map(hashingThreads)).toEqual([0, 0]);
    child.kill("SIGTERM");
    const r = await child.result;
    expect(r.code, r.stderr).toBe(0);
  });

  it("/metrics on any worker counts the requests of every worker", async () => {
    const { child, port } = await start(["--metrics"]);
    const { a, b } = await oneConnectionPerWorker(child, port);
    for (let i = 0; i < 3; i++) await a.call("GET", "/auth/jwt/jwks.json");
    for (let i = 0; i < 4; i++) await b.call("GET", "/auth/jwt/jwks.json");
    for (const conn of [a, b]) {
      const text = (await conn.call("GET", "/metrics")).body.text as string;
      expect(text).toMatch(/authsvc_http_requests_total\{route="\/auth\/jwt\/jwks\.json",method="GET",status="200"\} 7\n/);
    }
  });

  it("/readyz on any worker speaks for the whole server: how many workers are ready, a stopped worker not counted", async () => {
    const { child, port } = await start();
    const { a, b, workers } = await oneConnectionPerWorker(child, port);
    for (const conn of [a, b]) {
      const ready = await conn.call("GET", "/readyz");
      expect([ready.status, ready.body]).toEqual([200, { status: "ok", workers: { ready: 2, total: 2 } }]);
    }
    // A worker that cannot answer (stopped here; hung or starting alike) does not count: the other
    // still serves, so the server is ready with 1 of 2.
    const ownerA = ownerOf(port, (await a.call("GET", "/healthz")).localPort, workers)!;
    process.kill(ownerA, "SIGSTOP");
    try {
      const ready = await b.call("GET", "/readyz");
      expect([ready.status, ready.body]).toEqual([200, { status: "ok", workers: { ready: 1, total: 2 } }]);
    } finally {
      process.kill(ownerA, "SIGCONT");
    }
    const again = await a.call("GET", "/readyz");
    expect([again.status, again.body]).toEqual([200, { status: "ok", workers: { ready: 2, total: 2 } }]);
    child.kill("SIGTERM");
    expect((await child.result).code).toBe(0);
  });

  it("finishes in-flight sign-ins on both workers on SIGTERM, then refuses connections and exits 0", async () => {
    const db = await backend.create();
    cleanup.push(db.drop);
    const env = { AUTHSVC_BCRYPT_COST: "10", AUTHSVC_LOG_LEVEL: "info" };
    const created = await runCli(["create-user", "--email", "ada@example.com", "--password-stdin", "--database", db.url, "--create"], { stdin: PW, env });
    expect(created.code, created.stderr).toBe(0);
    const child = spawnBin(["serve", "--workers", "2", "--port", "0", "--mail-catcher-port", "0", "--database", db.url], { env });
    cleanup.push(() => { if (child.exitCode === null) child.kill("SIGKILL"); });
    const port = await listeningPort(child);
    const { a, b } = await oneConnectionPerWorker(child, port);

    // One request per connection: a second one queued behind it in the client would only be sent
    // after the answer, when the server has already stopped taking new requests.
    const inFlight = [a, b].map((c) => c.call("POST", "/auth/signin", signUpBody("ada@example.com"), headerMode));
    await new Promise((r) => setTimeout(r, 20));
    child.kill("SIGTERM");
    const answers = await Promise.all(inFlight);
    expect(answers.map((x) => [x.status, x.body.status])).toEqual(Array.from({ length: 2 }, () => [200, "OK"]));
    const r = await child.result;
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('"msg":"stopped","cut":false');
    expect(await new Promise((resolve) => {
      const s = connect(port, "127.0.0.1");
      s.on("connect", () => { s.destroy(); resolve("connected"); });
      s.on("error", (err: NodeJS.ErrnoException) => resolve(err.code));
    })).toBe("ECONNREFUSED");
  });

  it("replaces a worker that dies, logs it, and keeps serving", async () => {
    const { child, port } = await start();
    let stderr = "";
    child.stderr!.on("data", (d) => { stderr += d; });
    const [victim, survivor] = childrenOf(child.pid!);
    process.kill(victim, "SIGKILL");
    await until(() => stderr.includes('"msg":"HTTP worker died; starting a replacement"'), "the death to be logged");
    await until(() => stderr.includes('"msg":"HTTP worker replaced"'), "a replacement worker to listen", 60_000);
    expect(childrenOf(child.pid!)).toHaveLength(2);
    expect(childrenOf(child.pid!)).not.toContain(victim);
    expect(childrenOf(child.pid!)).toContain(survivor);
    // Every new connection is answered (by either worker; the replacement is listening once the cluster hands it connections).
    for (let i = 0; i < 6; i++) {
      const c = connection(port);
      cleanup.push(c.close);
      expect((await c.call("GET", "/healthz")).status).toBe(200);
      c.close();
    }
    child.kill("SIGTERM");
    const r = await child.result;
    expect(r.code, r.stderr).toBe(0);
  });

  it("sends a webhook committed on a worker at once, not at the primary's next poll", async () => {
    const rx = await startReceiver();
    cleanup.push(() => rx.close());
    const db = await backend.create();
    cleanup.push(db.drop);
    expect((await runBin(["migrate", "--database", db.url])).code).toBe(0);
    const added = await runBin(["webhooks", "add", "--url", rx.url, "--events", "user.created", "--database", db.url]);
    expect(added.code, added.stderr).toBe(0);
    const child = spawnBin(["serve", "--workers", "2", "--port", "0", "--no-mail-catcher", "--no-rate-limits", "--database", db.url], { env: { AUTHSVC_LOG_LEVEL: "info" } });
    cleanup.push(() => { if (child.exitCode === null) { for (const pid of childrenOf(child.pid!)) { try { process.kill(pid, "SIGKILL"); } catch { /* gone */ } } child.kill("SIGKILL"); } });
    const port = await listeningPort(child);
    const { a, b } = await oneConnectionPerWorker(child, port);
    // Three sign-ups, on both workers: each delivery follows its commit (the primary's poll is every 10 s).
    const lags: number[] = [];
    for (const [i, conn] of [a, b, a].entries()) {
      expect((await conn.call("POST", "/auth/signup", signUpBody(`hook${i}@example.com`), headerMode)).status).toBe(200);
      const committed = Date.now();
      await until(() => rx.received.length === i + 1, `webhook ${i}`);
      lags.push(Date.now() - committed);
    }
    // Within 1 s on an idle machine; 3 s leaves room for a loaded one and is still far from the poll.
    expect(Math.max(...lags), `lags ${lags.join(", ")} ms`).toBeLessThan(3_000);
    child.kill("SIGTERM");
    expect((await child.result).code).toBe(0);
  });

  it("keeps every sign-up it acknowledged when the primary and both workers are killed with SIGKILL", async () => {
    const { child, port, db } = await start(["--no-mail-catcher", "--no-rate-limits"]);
    const pids = [child.pid!, ...childrenOf(child.pid!)];
    const acked = await signUpUntilKilled(port, 40, () => {
      for (const pid of pids) { try { process.kill(pid, "SIGKILL"); } catch { /* gone */ } }
    });
    await child.result;
    const listed = await runBin(["users", "list", "--json", "--limit", "10000", "--database", db]);
    expect(listed.code, listed.stderr).toBe(0);
    const stored = new Set((JSON.parse(listed.stdout) as { email: string }[]).map((u) => u.email));
    expect(acked.length).toBeGreaterThanOrEqual(40);
    expect(acked.filter((e) => !stored.has(e))).toEqual([]);
  });
});
