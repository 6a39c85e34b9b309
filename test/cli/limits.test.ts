import { beforeEach, describe, expect, it } from "vitest";
import { listEvents } from "../../src/store/events.js";
import { backends } from "../helpers/backends.js";
import { useCliDatabase } from "./fixture.js";

describe.each(backends)("authsvc limits on $name", (backend) => {
  const t = useCliDatabase(backend);
  beforeEach(async () => {
    await t.create();
    expect(await t.cli(["limits", "list"])).toEqual({ code: 0, stdout: "no live rate-limit counters\n", stderr: "" });
    const now = Date.now();
    // A locked address (20 failed sign-ins) and a client over its sign-up budget, as a server leaves them.
    await t.store().db.insertInto("rate_limits").values([
      { bucket: "signin-failures", key: "ada@example.com", count: 20, updated_at: now, expires_at: now + 3600_000, blocked_until: now + 3600_000 },
      { bucket: "signup-ip", key: "192.0.2.1", count: 21, updated_at: now, expires_at: now + 3600_000, blocked_until: 0 },
      { bucket: "email-exists-ip", key: "192.0.2.1", count: 3, updated_at: now, expires_at: now + 900_000, blocked_until: 0 },
      { bucket: "signin-ip", key: "192.0.2.9", count: 1, updated_at: now - 7200_000, expires_at: now - 3600_000, blocked_until: 0 },
    ]).execute();
  });

  it("list shows live counters and which are limited (text and --json)", async () => {
    // Read with the server's settings: one reachable on 0.0.0.0 keeps the strict budgets (not loopback development's).
    const strict = { env: { AUTHSVC_HOST: "0.0.0.0" } };
    const text = await t.cli(["limits", "list"], strict);
    expect(text.code).toBe(0);
    const lines = text.stdout.split("\n");
    expect(lines[0]).toMatch(/^email-exists-ip {3}192\.0\.2\.1 {2}count 3 of 100 {2}forgotten in (15m|14m 59s) \(at \S+Z\)$/);
    expect(lines[1]).toMatch(/^signin-failures {3}ada@example\.com {2}20 failed sign-in\(s\), locked at 20 {2}LOCKED for (1h|59m 59s) more \(until \S+Z\); lift it with `authsvc limits clear --email ada@example\.com`$/);
    expect(lines[2]).toMatch(/^signup-ip {9}192\.0\.2\.1 {2}count 21 of 20 {2}LIMITED for (1h|59m 59s) more \(until \S+Z\)$/);
    expect(lines.slice(3)).toEqual([""]);
    const json = JSON.parse((await t.cli(["limits", "list", "--json"], strict)).stdout);
    expect(json.map((r: { bucket: string; limited: boolean; state: string; limit: number }) => [r.bucket, r.limited, r.state, r.limit])).toEqual([["email-exists-ip", false, "counting", 100], ["signin-failures", true, "locked", 20], ["signup-ip", true, "limited", 20]]);
    expect(json[1].remainingMs).toBeGreaterThan(3590_000);
    expect(json[1].remainingMs).toBeLessThanOrEqual(3600_000);
  });

  it("a failed sign-in's growing wait shows as DELAYED with the time left, not as a plain count", async () => {
    const now = Date.now();
    await t.store().db.insertInto("rate_limits").values({ bucket: "signin-failures", key: "bob@example.com", count: 6, updated_at: now, expires_at: now + 3600_000, blocked_until: now + 2000 }).execute();
    const line = (await t.cli(["limits", "list"])).stdout.split("\n").find((l) => l.includes("bob@"));
    expect(line).toMatch(/^signin-failures {3}bob@example\.com {2}6 failed sign-in\(s\), locked at 20 {2}DELAYED for [12]s more \(until \S+Z\): each further failure waits longer$/);
  });

  it("clear --email and --ip lift every bucket of that key and record who did it", async () => {
    expect(await t.cli(["limits", "clear", "--email", " ADA@example.com"])).toMatchObject({ code: 0, stdout: "cleared signin-failures for ada@example.com\n" });
    expect(JSON.parse((await t.cli(["limits", "clear", "--ip", "::ffff:192.0.2.1", "--json"])).stdout)).toEqual({ key: "192.0.2.1", buckets: ["email-exists-ip", "signup-ip"] });
    expect((await t.cli(["limits", "clear", "--ip", "192.0.2.1"])).stdout).toBe("nothing to clear for 192.0.2.1\n");
    expect((await t.cli(["limits", "list"])).stdout).toBe("no live rate-limit counters\n");
    const events = await listEvents(t.store().db, { type: "rate_limit.cleared" });
    expect(events.map((e) => JSON.parse(e.data!))).toEqual([
      { key: "ada@example.com", buckets: ["signin-failures"], source: "cli" },
      { key: "192.0.2.1", buckets: ["email-exists-ip", "signup-ip"], source: "cli" },
    ]);
  });

  it("clear needs exactly one of --email / --ip, and a real address (exit 2)", async () => {
    expect(await t.cli(["limits", "clear"])).toEqual({ code: 2, stdout: "", stderr: "authsvc: give exactly one of --email or --ip\n" });
    expect((await t.cli(["limits", "clear", "--email", "a@example.com", "--ip", "192.0.2.1"])).code).toBe(2);
    expect(await t.cli(["limits", "clear", "--ip", "300.1.1.1"])).toEqual({ code: 2, stdout: "", stderr: "authsvc: --ip: not an IP address: 300.1.1.1\n" });
    expect((await t.cli(["limits", "list", "--json"])).stdout).toContain("ada@example.com");
  });
});
