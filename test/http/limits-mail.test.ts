import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { createApp, type App } from "../../src/app.js";
import { toNodeListener } from "../../src/http/app.js";
import { backends } from "../helpers/backends.js";
import { call, emailOnly, LIMITED, shape, signin } from "../helpers/limits.js";
import { createTestApp, type TestApp } from "../helpers/test-app.js";
import { signUpWithPassword } from "../../src/methods/email-password/accounts.js";

const PW = "correct horse battery staple";

describe.each(backends)("mail requests per address on $name (defaults: 1 a minute per kind, 5 an hour)", (backend) => {
  let t: TestApp;
  afterEach(async () => { await t?.close(); });

  it("password reset: the same 429 for a known and an unknown address, cooldown then hourly cap", async () => {
    t = await createTestApp({ backend });
    await signUpWithPassword(t.app.ctx, { email: "ada@example.com", password: PW });
    const ask = (email: string) => call(t, "/user/password/reset/token", emailOnly(email));
    for (let i = 0; i < 5; i++) {
      if (i > 0) t.clock.advance(60_000);
      // (development mode: the known address's answer also carries the token; production sends {"status":"OK"} to both)
      expect((await ask("ada@example.com")).body.status).toBe("OK");
      expect((await ask("nobody@example.com")).body).toEqual({ status: "OK" });
      const known = await ask("ADA@example.com");
      expect(shape(known)).toEqual({ status: 429, body: LIMITED, retryAfter: 60 });
      expect(shape(await ask("nobody@example.com"))).toEqual(shape(known));
    }
    t.clock.advance(60_000);
    const capped = await ask("ada@example.com");
    expect(shape(capped)).toEqual({ status: 429, body: LIMITED, retryAfter: 3600 - 5 * 60 });
    expect(shape(await ask("nobody@example.com"))).toEqual(shape(capped));
    // Exactly five reset mails were queued for the account.
    expect((await t.app.store.db.selectFrom("mail_outbox").select("kind").where("to_address", "=", "ada@example.com").execute()).length).toBe(5);
    t.clock.advance(3600_000);
    expect((await ask("ada@example.com")).body.status).toBe("OK");
  });

  it("email verification: a second request within the minute is 429; a reset for the same address is not", async () => {
    t = await createTestApp({ backend });
    const up = await fetch(`${t.url}/auth/signup`, { method: "POST", headers: { "content-type": "application/json", "st-auth-mode": "header" }, body: JSON.stringify(signin("bo@example.com", PW)) });
    const auth = { authorization: `Bearer ${up.headers.get("st-access-token")}` };
    expect((await call(t, "/user/email/verify/token", {}, auth)).body.status).toBe("OK");
    expect(shape(await call(t, "/user/email/verify/token", {}, auth))).toEqual({ status: 429, body: LIMITED, retryAfter: 60 });
    expect((await call(t, "/user/password/reset/token", emailOnly("bo@example.com"))).body.status).toBe("OK");
    t.clock.advance(60_000);
    expect((await call(t, "/user/email/verify/token", {}, auth)).body.status).toBe("OK");
  });
});

describe.each(backends)("two instances on one $name database", (backend) => {
  let t: TestApp;
  const others: Array<{ app: App; server: Server }> = [];
  afterEach(async () => {
    for (const o of others.splice(0)) { o.server.closeAllConnections(); await new Promise((r) => o.server.close(r)); await o.app.close(); }
    await t?.close();
  });
  /** A second `serve` on the same database and clock. */
  async function instance(): Promise<string> {
    const app = await createApp(t.config, { clock: t.clock });
    const server = createServer(toNodeListener(app.http));
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
    others.push({ app, server });
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  it("share one budget, and a restart does not reset it", async () => {
    t = await createTestApp({ backend });
    const b = await instance();
    for (let i = 0; i < 10; i++) {
      expect((await call(t, "/signup", signin(`a${i}@example.com`, PW))).status).toBe(200);
      expect((await call(b, "/signup", signin(`b${i}@example.com`, PW))).status).toBe(200);
    }
    expect((await call(t, "/signup", signin("a99@example.com", PW))).status).toBe(429);
    expect((await call(b, "/signup", signin("b99@example.com", PW))).status).toBe(429);
    // Failed sign-ins for one address add up across instances: 3 + 2, then the wait.
    for (let i = 0; i < 3; i++) expect((await call(t, "/signin", signin("x@example.com", "wrong horse battery"))).status).toBe(200);
    for (let i = 0; i < 2; i++) expect((await call(b, "/signin", signin("x@example.com", "wrong horse battery"))).status).toBe(200);
    expect((await call(b, "/signin", signin("x@example.com", "wrong horse battery"))).status).toBe(429);
    // A fresh instance (a restart) sees the same counts.
    const c = await instance();
    expect((await call(c, "/signup", signin("c1@example.com", PW))).status).toBe(429);
    expect((await call(c, "/signin", signin("x@example.com", "wrong horse battery"))).status).toBe(429);
  });
});
