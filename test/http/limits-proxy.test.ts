import { afterEach, describe, expect, it } from "vitest";
import { clearLimits, listLimits } from "../../src/core/limits-admin.js";
import { ipKey } from "../../src/core/limits.js";
import { backends } from "../helpers/backends.js";
import { call, signin } from "../helpers/limits.js";
import { createTestApp, type TestApp } from "../helpers/test-app.js";
import { createLogger } from "../../src/util/logger.js";

const PW = "correct horse battery staple";
let n = 0;
/** One sign-up (bucket signup-ip: 20 per hour by default) sent with an X-Forwarded-For header. */
const signUpFrom = (t: TestApp, xff?: string) => call(t, "/signup", signin(`p${n++}@example.com`, PW), xff ? { "x-forwarded-for": xff } : {});

describe.each(backends)("client IP and X-Forwarded-For on $name", (backend) => {
  let t: TestApp;
  afterEach(async () => { await t?.close(); });

  it("without --trusted-proxies a spoofed X-Forwarded-For neither bypasses nor resets the socket's bucket", async () => {
    t = await createTestApp({ backend });
    for (let i = 0; i < 20; i++) expect((await signUpFrom(t, `198.51.100.${i}`)).status).toBe(200);
    expect((await signUpFrom(t, "198.51.100.99")).status).toBe(429);
    expect((await signUpFrom(t)).status).toBe(429);
    const rows = await listLimits(t.app.ctx);
    expect(rows.map((r) => [r.bucket, r.key, r.limited])).toEqual([["signup-ip", "127.0.0.1", true]]);
  });

  it("from a trusted proxy the forwarded client is the key (right-most untrusted hop); IPv6 clients by /64", async () => {
    t = await createTestApp({ backend, config: { trustedProxies: ["127.0.0.1/32", "10.0.0.0/8"] } });
    for (let i = 0; i < 20; i++) expect((await signUpFrom(t, "198.51.100.1")).status).toBe(200);
    expect((await signUpFrom(t, "198.51.100.1")).status).toBe(429);
    // What the client wrote left of the hop our proxy added is not believed; a trusted inner hop is skipped.
    expect((await signUpFrom(t, "203.0.113.5, 198.51.100.1")).status).toBe(429);
    expect((await signUpFrom(t, "198.51.100.1, 10.1.2.3")).status).toBe(429);
    expect((await signUpFrom(t, "198.51.100.2")).status).toBe(200);
    for (let i = 0; i < 20; i++) expect((await signUpFrom(t, `2001:db8:1:2::${i + 1}`)).status).toBe(200);
    expect((await signUpFrom(t, "2001:db8:1:2:ffff:ffff:ffff:ffff")).status).toBe(429);
    expect((await signUpFrom(t, "2001:db8:1:3::1")).status).toBe(200);
    expect((await listLimits(t.app.ctx)).filter((r) => r.limited).map((r) => r.key).sort()).toEqual(["198.51.100.1", "2001:db8:1:2::/64"]);
    // `limits clear --ip` (core) lifts one client only.
    expect(await clearLimits(t.app.ctx, { ip: "2001:db8:1:2::77" }, "test")).toEqual({ key: "2001:db8:1:2::/64", buckets: ["signup-ip"] });
    expect((await signUpFrom(t, "2001:db8:1:2::1")).status).toBe(200);
    expect((await signUpFrom(t, "198.51.100.1")).status).toBe(429);
  });
});

describe("forwarded headers without --trusted-proxies", () => {
  let t: TestApp;
  afterEach(async () => { await t?.close(); });
  const warningsIn = (lines: string[]) => lines.map((l) => JSON.parse(l)).filter((e) => e.level === "warn" && /trusted-proxies/.test(e.msg));

  it("warn once, naming the header and the setting, when X-Forwarded-For or Forwarded arrives", async () => {
    const lines: string[] = [];
    t = await createTestApp({ logger: createLogger("warn", (l) => lines.push(l)) });
    await signUpFrom(t);
    expect(warningsIn(lines)).toEqual([]);
    await signUpFrom(t, "198.51.100.7");
    await signUpFrom(t, "198.51.100.8");
    await call(t, "/signup", signin(`p${n++}@example.com`, PW), { forwarded: "for=198.51.100.9" });
    const warnings = warningsIn(lines);
    expect(warnings).toHaveLength(1);
    expect(warnings[0].msg).toMatch(/^a request came with X-Forwarded-For but no --trusted-proxies are set: every client behind that proxy shares the proxy's address and one rate-limit budget\. Set --trusted-proxies \(AUTHSVC_TRUSTED_PROXIES\)/);
    expect(warnings[0].peer).toBe("127.0.0.1");
  });

  it("name the standard Forwarded header when that is the one that came", async () => {
    const lines: string[] = [];
    t = await createTestApp({ logger: createLogger("warn", (l) => lines.push(l)) });
    await call(t, "/signup", signin(`p${n++}@example.com`, PW), { forwarded: "for=198.51.100.9;proto=https" });
    expect(warningsIn(lines).map((w) => w.msg.slice(0, 38))).toEqual(["a request came with Forwarded but no -"]);
  });

  it("say nothing when trusted proxies are configured", async () => {
    const lines: string[] = [];
    t = await createTestApp({ config: { trustedProxies: ["127.0.0.1/32"] }, logger: createLogger("warn", (l) => lines.push(l)) });
    await signUpFrom(t, "198.51.100.7");
    await call(t, "/signup", signin(`p${n++}@example.com`, PW), { forwarded: "for=198.51.100.9" });
    expect(warningsIn(lines)).toEqual([]);
  });
});

describe("ipKey", () => {
  it("keeps IPv4 (also IPv4-mapped IPv6), takes IPv6 by /64, refuses what is not an address", () => {
    expect(ipKey("192.0.2.1")).toBe("192.0.2.1");
    expect(ipKey("::ffff:192.0.2.1")).toBe("192.0.2.1");
    expect(ipKey("2001:db8:aa:bb:1:2:3:4")).toBe("2001:db8:aa:bb::/64");
    expect(ipKey("::1")).toBe("::/64");
    expect(ipKey("example.com")).toBeUndefined();
  });
});
