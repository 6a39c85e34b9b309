import { describe, expect, it } from "vitest";
import { ConfigError, describeConfig, resolveConfig } from "../../src/config.js";
import { webhookEvents } from "../../src/rooms.js";
import { toWebhookPayload } from "../../src/webhooks/events.js";

const secret = `whsec_${Buffer.alloc(32, 2).toString("base64")}`;

describe("the webhooks setting", () => {
  it("reads endpoints from AUTHSVC_WEBHOOKS and masks their secrets in `authsvc config`", () => {
    const resolved = resolveConfig({ env: { AUTHSVC_WEBHOOKS: JSON.stringify([{ url: "https://app.example.com/hooks", secret, events: ["user.created"] }]) } });
    expect(resolved.config.webhooks).toEqual([{ url: "https://app.example.com/hooks", secret, events: ["user.created"] }]);
    const shown = describeConfig(resolved).find((s) => s.key === "webhooks");
    expect(JSON.stringify(shown)).not.toContain(secret);
    expect(shown?.value).toEqual([{ url: "https://app.example.com/hooks", secret: "********", events: ["user.created"] }]);
  });

  it.each([
    ["not json", /expected a JSON array/],
    [JSON.stringify([{ url: "https://a.example", events: "*" }]), /entry 0: secret is required/],
    [JSON.stringify([{ url: "https://a.example", secret: "whsec_short" }]), /entry 0: secret must be whsec_/],
    [JSON.stringify([{ url: "mailto:x@y", secret }]), /entry 0: url must be an http or https URL/],
    [JSON.stringify([{ url: "https://a.example", secret, events: ["user.nope"] }]), /entry 0: unknown event type "user.nope"/],
    [JSON.stringify([{ url: "https://a.example/", secret }, { url: "https://a.example", secret }]), /every endpoint URL may appear once/],
  ])("refuses %s with a message naming the setting, never the secret", (raw, why) => {
    let err: unknown;
    try { resolveConfig({ env: { AUTHSVC_WEBHOOKS: raw } }); } catch (e) { err = e; }
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as Error).message).toMatch(/^invalid value for AUTHSVC_WEBHOOKS \(environment\): \(hidden\): /);
    expect((err as Error).message).toMatch(why);
    expect((err as Error).message).not.toContain(secret);
  });
});

describe("the event table", () => {
  it("maps internal events to public payloads and leaves the rest on the server", () => {
    expect(toWebhookPayload(webhookEvents, { at: Date.UTC(2026, 0, 2), type: "session.token_theft_detected", userId: "u1", data: { sessionHandle: "h" } }))
      .toEqual({ type: "session.revoked", timestamp: "2026-01-02T00:00:00.000Z", data: { userId: "u1", sessionHandle: "h", reason: "token_theft" } });
    expect(toWebhookPayload(webhookEvents, { at: 0, type: "password_reset.no_account", userId: null, data: { email: "x@y" } })).toBeUndefined();
    expect(webhookEvents.types).toContain("user.created");
    expect(webhookEvents.types).toContain("webhook.endpoint_disabled");
  });
});
