import { afterEach, describe, expect, it } from "vitest";
import { backends } from "../helpers/backends.js";
import { runCli } from "../helpers/cli.js";
import { createTestApp, type TestApp } from "../helpers/test-app.js";
import { eventually } from "../helpers/mail.js";
import { credentials, postJson } from "../helpers/session-client.js";
import { startReceiver } from "../helpers/webhook-receiver.js";

const cleanup: Array<() => Promise<void>> = [];
afterEach(async () => { while (cleanup.length) await cleanup.pop()!(); });

describe.each(backends)("authsvc webhooks on $name", (backend) => {
  it("add prints the secret once; list, deliveries, replay, enable and remove work on the same database as serve", async () => {
    const rx = await startReceiver();
    cleanup.push(() => rx.close());
    const t: TestApp = await createTestApp({ backend, start: true });
    cleanup.push(() => t.close());
    const cli = (args: string[]) => runCli([...args, "--database", t.config.database]);

    const bad = await cli(["webhooks", "add", "--url", "not a url"]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/^authsvc: url must be an absolute http\(s\) URL/);
    const added = await cli(["webhooks", "add", "--url", rx.url, "--events", "user.created,user.deleted", "--json"]);
    expect(added.code, added.stderr).toBe(0);
    const ep = JSON.parse(added.stdout) as { id: string; secret: string; events: string[] };
    expect(ep.events).toEqual(["user.created", "user.deleted"]);
    const list = await cli(["webhooks", "list"]);
    expect(list.stdout).toContain(`${ep.id}  ${rx.url}  events user.created,user.deleted  api  enabled`);
    expect(list.stdout).not.toContain("whsec_");

    await postJson(`${t.url}/auth/signup`, credentials("gus@example.com"));
    await eventually(async () => rx.received.length === 1);
    await eventually(async () => (await cli(["webhooks", "deliveries", "--status", "delivered"])).stdout.includes("user.created"));
    const log = JSON.parse((await cli(["webhooks", "deliveries", "--endpoint", ep.id, "--json"])).stdout) as { deliveries: Array<{ id: string; messageId: string; status: string; lastStatus: number }> };
    expect(log.deliveries).toHaveLength(1);
    expect(log.deliveries[0]).toMatchObject({ status: "delivered", lastStatus: 200 });
    const text = await cli(["webhooks", "deliveries"]);
    expect(text.stdout).toMatch(new RegExp(`${log.deliveries[0].id}  user\\.created  delivered  attempts 1  last HTTP 200`));

    // The CLI queues the replay; the running server's worker sends it (its poll, at the latest).
    const replay = await cli(["webhooks", "replay", log.deliveries[0].id]);
    expect(replay.code, replay.stderr).toBe(0);
    expect(replay.stdout).toContain(`webhook-id ${log.deliveries[0].messageId}`);
    t.clock.set(Date.now()); // the CLI queued it at its own (real) time; the server's test clock catches up
    await t.app.background.flush("webhooks");
    await eventually(async () => rx.received.length === 2);
    expect(rx.received[1].id).toBe(log.deliveries[0].messageId);
    expect(rx.verify(ep.secret, rx.received[1])).toMatchObject({ type: "user.created" });

    expect((await cli(["webhooks", "replay", "nope"])).stderr).toBe("authsvc: No such webhook delivery\n");
    expect((await cli(["webhooks", "disable", ep.id])).stdout).toContain(`disabled webhook endpoint ${ep.id}`);
    expect((await cli(["webhooks", "list"])).stdout).toContain("DISABLED");
    expect((await cli(["webhooks", "disable", ep.id])).stderr).toBe(`authsvc: endpoint ${ep.id} is disabled already\n`);
    expect((await cli(["webhooks", "enable", ep.id])).stdout).toContain(`enabled webhook endpoint ${ep.id}`);
    expect((await cli(["webhooks", "remove", ep.id])).stdout).toContain(`removed webhook endpoint ${ep.id}`);
    expect((await cli(["webhooks", "list"])).stdout.trim()).toBe("no webhook endpoints");
    expect((await runCli(["webhooks", "secret"])).stdout).toMatch(/^whsec_[A-Za-z0-9+/]{43}=\n$/);
  });
});
