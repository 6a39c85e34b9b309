import { afterEach, describe, expect, it } from "vitest";
import { purgeDeadData } from "../../src/core/purge.js";
import { signUpWithPassword } from "../../src/methods/email-password/accounts.js";
import { backends } from "../helpers/backends.js";
import { createTestApp, type TestApp } from "../helpers/test-app.js";

const DAY = 86_400_000;

/**
 * The purge forgets a device not seen for a year (src/security-mails/purge.ts): a sign-in from it
 * after that is a new device again, mailed; one seen within the year stays known.
 */
describe.each(backends)("known devices are forgotten after a year ($name)", (backend) => {
  let t: TestApp;
  afterEach(async () => { await t?.close(); });

  it("deletes the devices last seen over a year ago and keeps the others", async () => {
    t = await createTestApp({ backend, listen: false });
    const up = await signUpWithPassword(t.app.ctx, { email: "dev@example.com", password: "correct horse battery staple" });
    if (up.status !== "OK") throw new Error(up.status);
    const now = t.clock.now();
    const row = (device: string, lastSeen: number) => ({ person_id: up.user.id, device, first_seen: lastSeen - DAY, last_seen: lastSeen, mailed_at: null });
    await t.app.store.db.insertInto("known_devices").values([row("a".repeat(64), now - 400 * DAY), row("b".repeat(64), now - 300 * DAY), row("c".repeat(64), now - DAY)]).execute();

    expect((await purgeDeadData(t.app.ctx)).knownDevices).toBe(1);
    const left = (await t.app.store.db.selectFrom("known_devices").select("device").where("person_id", "=", up.user.id).execute()).map((r) => r.device).sort();
    expect(left).toEqual(["b".repeat(64), "c".repeat(64)]);
    expect((await purgeDeadData(t.app.ctx)).knownDevices).toBe(0);
  });
});
