import { Readable } from "node:stream";
import { Pool } from "undici";
import { afterEach, describe, expect, it } from "vitest";
import { backends } from "../helpers/backends.js";
import { credentials } from "../helpers/session-client.js";
import { startServe } from "../ops/serve-child.js";

const IN_FLIGHT = 8;

/** `total` requests, IN_FLIGHT at a time, on a pool of IN_FLIGHT keep-alive connections; every outcome. */
async function flood(pool: Pool, total: number, make: (i: number) => Parameters<Pool["request"]>[0]) {
  const outcomes: (number | string)[] = [];
  let next = 0;
  const worker = async () => {
    while (next < total) {
      const i = next++;
      try {
        const res = await pool.request(make(i));
        await res.body.text();
        outcomes.push(res.statusCode);
      } catch (err) {
        outcomes.push((err as { code?: string }).code ?? String(err));
      }
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
  return outcomes;
}

const tally = (xs: (number | string)[]) => xs.reduce<Record<string, number>>((m, x) => ({ ...m, [x]: (m[x] ?? 0) + 1 }), {});
const json = (body: unknown) => ({ method: "POST" as const, headers: { "content-type": "application/json", rid: "emailpassword" }, body: JSON.stringify(body) });

// Issue 17: a request refused before its body is read keeps its keep-alive connection.
// The server is the built `authsvc serve` in a child process: a dropped connection is a race between
// the server closing and the client reusing the socket, which needs two processes to show.
describe.each(backends)("refusals keep the connection ($name)", (backend) => {
  const cleanup: Array<() => Promise<void> | void> = [];
  let pool: Pool | undefined;
  afterEach(async () => {
    await pool?.destroy();
    pool = undefined;
    for (const c of cleanup.splice(0).reverse()) await c();
  });

  const open = async (args: string[], env: Record<string, string> = {}) => {
    const db = await backend.create();
    cleanup.push(() => db.drop());
    // One process: these tests are about one listener's keep-alive behaviour (and stay within their time on a small machine).
    const { port } = await startServe(["--workers", "1", "--database", db.url, ...args], cleanup, { AUTHSVC_LOG_LEVEL: "warn", ...env });
    pool = new Pool(`http://127.0.0.1:${port}`, { connections: IN_FLIGHT, pipelining: 1 });
  };

  it("every rate-limited sign-in and sign-up gets its 429, none a dropped connection", async () => {
    await open(["--limit-signin-ip", "5/15m", "--limit-signup-ip", "5/15m"]);
    const signIns = tally(await flood(pool!, 300, (i) => ({ path: "/auth/signin", ...json(credentials(`nobody-${i}@example.com`)) })));
    expect(signIns).toEqual({ 200: 5, 429: 295 });
    const signUps = tally(await flood(pool!, 300, (i) => ({ path: "/auth/signup", ...json(credentials(`new-${i}@example.com`)) })));
    expect(signUps).toEqual({ 200: 5, 429: 295 });
  });

  it("401, 415 and 403 refusals with a body keep the connection too", async () => {
    // The wrong-key limit (admin-key-ip) is off: every wrong key is answered 401 here.
    await open(["--limit-admin-key-ip", "off"], { AUTHSVC_ADMIN_API_KEY: "Zq7vN2xK9pR4mT8wB3cF6hJ1sL5dG0yQ" });
    const outcomes = tally(await flood(pool!, 240, (i) => [
      { path: "/auth/signout", ...json({ some: "body" }) }, // no session: 401 before the body is read
      { path: "/auth/signin", method: "POST" as const, headers: { "content-type": "text/plain" }, body: "x".repeat(2000) }, // 415
      { path: "/admin/v1/users", ...json({ email: "a@example.com" }), headers: { "content-type": "application/json", authorization: "Bearer wrong-key-wrong-key-wrong-key-xx" } }, // 401
      { path: "/auth/signin", ...json(credentials("x@example.com")), headers: { "content-type": "application/json", host: "evil.example" } }, // 403 (development)
    ][i % 4]));
    expect(outcomes).toEqual({ 401: 120, 415: 60, 403: 60 });
  });

  it("a body declared over the limit, or an endless one, closes its connection after the answer; the pool keeps working", async () => {
    await open(["--body-limit", "4096"]);
    const big = await pool!.request({ path: "/auth/signout", method: "POST", headers: { "content-type": "application/json" }, body: "x".repeat(5000) });
    expect(big.statusCode).toBe(401);
    expect(big.headers.connection).toBe("close");
    await big.body.text();
    // A chunked body that never ends: the server stops reading it past the limit and closes the
    // connection; the client sees its answer or, when the close beats it, a socket error.
    let sent = 0;
    const endless = new Readable({ read() { sent += 1024; this.push(Buffer.alloc(1024, 120)); } });
    const outcome = await pool!.request({ path: "/auth/signout", method: "POST", headers: { "content-type": "application/json" }, body: endless })
      .then(async (res) => { await res.body.text().catch(() => undefined); return res.statusCode; }, (err: { code?: string }) => err.code);
    expect([401, "UND_ERR_SOCKET", "ECONNRESET", "EPIPE"]).toContain(outcome);
    await new Promise((r) => setTimeout(r, 200));
    expect(endless.destroyed).toBe(true); // the upload was cut: the server closed the socket
    expect(sent).toBeLessThan(16 * 1024 * 1024);
    const after = tally(await flood(pool!, 40, () => ({ path: "/auth/signout", ...json({}) })));
    expect(after).toEqual({ 401: 40 });
  });
});
