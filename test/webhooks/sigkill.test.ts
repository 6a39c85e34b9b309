import { afterEach, describe, expect, it } from "vitest";
import { backends } from "../helpers/backends.js";
import { spawnBin } from "../helpers/bin.js";
import { eventually } from "../helpers/mail.js";
import { credentials, postJson } from "../helpers/session-client.js";
import { startReceiver } from "../helpers/webhook-receiver.js";
import { openStore } from "../../src/store/database.js";
import { listDeliveries } from "../../src/webhooks/store.js";

const cleanup: Array<() => Promise<void>> = [];
afterEach(async () => { while (cleanup.length) await cleanup.pop()!(); });

/** The built `authsvc serve` on a free port; resolves with the port once it listens. */
async function serve(database: string, env: Record<string, string>) {
  const child = spawnBin(["serve", "--port", "0", "--mail-catcher-port", "0", "--database", database], { env: { AUTHSVC_LOG_LEVEL: "info", ...env } });
  cleanup.push(async () => { if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL"); });
  let seen = "";
  const port = await new Promise<number>((resolve, reject) => {
    child.stderr!.on("data", (d) => { seen += d; const m = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(seen); if (m) resolve(Number(m[1])); });
    child.on("close", (code) => reject(new Error(`serve exited (${code}) before listening:\n${seen}`)));
  });
  return { child, port };
}

describe.each(backends)("webhooks across a SIGKILL of serve on $name", (backend) => {
  it("a delivery in flight when serve is killed is sent by the next serve, same webhook-id, verified", { timeout: 90_000 }, async () => {
    const db = await backend.create();
    cleanup.push(() => db.drop());
    const rx = await startReceiver();
    cleanup.push(() => rx.close());
    rx.plan.push("hang"); // the first attempt reaches the endpoint, which never answers: in flight
    const secret = `whsec_${Buffer.alloc(32, 9).toString("base64")}`;
    const env = { AUTHSVC_WEBHOOKS: JSON.stringify([{ url: rx.url, secret, events: ["user.created"] }]) };

    const first = await serve(db.url, env);
    expect((await postJson(`http://127.0.0.1:${first.port}/auth/signup`, credentials("kim@example.com"))).status).toBe(200);
    await eventually(async () => rx.received.length === 1);
    first.child.kill("SIGKILL"); // after the commit, before any answer from the endpoint
    await first.child.result;

    const store = openStore({ url: db.url });
    cleanup.push(() => store.close());
    const [row] = await listDeliveries(store.db, { limit: 10 });
    expect(row).toMatchObject({ status: "pending", attempts: 1, event_type: "user.created" });
    expect(row.lease_owner).not.toBeNull();

    // The next serve takes the row over once the dead worker's lease runs out (lease + poll ≤ 25 s).
    await serve(db.url, env);
    await eventually(async () => rx.received.length === 2, 40_000);
    expect(rx.received[1].id).toBe(rx.received[0].id);
    expect(rx.verify(secret, rx.received[1])).toMatchObject({ type: "user.created", data: { email: "kim@example.com" } });
    await eventually(async () => (await listDeliveries(store.db, { limit: 10 }))[0].status === "delivered", 10_000);
    const [done] = await listDeliveries(store.db, { limit: 10 });
    expect(done).toMatchObject({ attempts: 2, last_status: 200 });
  });
});
