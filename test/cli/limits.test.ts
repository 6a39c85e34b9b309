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
    const text = await t.cli(["limits", "list"]);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/^email-exists-ip {3}192\.0\.2\.1 {2}count 3 {2}forgotten at \S+Z\nsignin-failures {3}ada@example\.com {2}count 20 {2}LIMITED until \S+Z\nsignup-ip {9}192\.0\.2\.1 {2}count 21 {2}LIMITED until \S+Z\n$/);
    const json = JSON.parse((await t.cli(["limits", "list", "--json"])).stdout);
    expect(json.map((r: { bucket: string; limited: boolean }) => [r.bucket, r.limited])).toEqual([["email-exists-ip", false], ["signin-failures", true], ["signup-ip", true]]);
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
