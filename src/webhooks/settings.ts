import { randomBytes } from "node:crypto";
import type { SettingsBlock } from "../config/engine.js";
import { cidrList, duration, int } from "../config/parsers.js";
import { normaliseEventList, type EventTable } from "./events.js";

/** The webhook settings' checks (config.ts calls them; so do the CLI and the admin API). */

/** An endpoint of the webhooks setting, as config.ts parsed it. */
export interface ConfiguredEndpoint { url: string; secret: string; events: string[] | "*"; description?: string }

/** An endpoint URL: absolute http(s), no credentials in it. Throws a message. */
export function checkEndpointUrl(raw: unknown): string {
  if (typeof raw !== "string" || raw.length > 2000) throw new Error("url must be an http(s) URL of at most 2000 characters");
  let u: URL;
  try { u = new URL(raw.trim()); } catch { throw new Error("url must be an absolute http(s) URL such as https://app.example.com/hooks/auth"); }
  if (u.protocol !== "https:" && u.protocol !== "http:") throw new Error("url must be an http or https URL");
  if (u.username || u.password) throw new Error("url must not carry credentials; deliveries are signed instead");
  return u.toString();
}

/** A whsec_ secret (Standard Webhooks: base64 of 24 to 64 random bytes) given by the operator, or a new one of 32 bytes. */
export function checkSecret(raw: unknown): string {
  if (raw === undefined || raw === null) return `whsec_${randomBytes(32).toString("base64")}`;
  const m = typeof raw === "string" ? /^whsec_([A-Za-z0-9+/]+={0,2})$/.exec(raw) : null;
  const bytes = m ? Buffer.from(m[1], "base64").length : 0;
  if (bytes < 24 || bytes > 64) throw new Error("secret must be whsec_ followed by the base64 of 24 to 64 random bytes (leave it out to have one made)");
  return raw as string;
}

/** The webhooks setting (config file or AUTHSVC_WEBHOOKS): a JSON array of {url, secret, events?, description?}. Throws a message. */
export function parseWebhooksSetting(v: unknown, table: EventTable): ConfiguredEndpoint[] {
  let arr = v;
  if (typeof v === "string") {
    try { arr = JSON.parse(v); } catch { throw "expected a JSON array of {url, secret, events} objects"; }
  }
  if (!Array.isArray(arr)) throw "expected a JSON array of {url, secret, events} objects";
  const out = arr.map((e: unknown, i) => {
    if (!e || typeof e !== "object") throw `entry ${i}: expected an object {url, secret, events}`;
    const o = e as Record<string, unknown>;
    try {
      if (o.secret === undefined) throw new Error("secret is required (whsec_…; `authsvc webhooks secret` makes one)");
      return { url: checkEndpointUrl(o.url), secret: checkSecret(o.secret), events: normaliseEventList(table, o.events), ...(typeof o.description === "string" ? { description: o.description } : {}) };
    } catch (err) { throw `entry ${i}: ${(err as Error).message}`; }
  });
  if (new Set(out.map((e) => e.url)).size !== out.length) throw "every endpoint URL may appear once";
  return out;
}

declare module "../config/types.js" {
  interface Config {
    webhooks: readonly ConfiguredEndpoint[];
    webhookTimeoutMs: number;
    webhookFailureLimit: number;
    webhookAllowNetworks: readonly string[];
  }
}

/** Webhooks' settings (docs/webhooks.md), at the end of the table; endpoints may also be added with `authsvc webhooks add` or the admin API. */
export const webhookSettings = (table: EventTable): SettingsBlock => ({ helpGroup: "Webhooks", helpGroupAfter: "Limits", rows: [
  { key: "webhooks", env: "AUTHSVC_WEBHOOKS", parse: (v) => parseWebhooksSetting(v, table), secret: "all", maskFields: true, default: () => [], doc: "webhook endpoints (JSON array of {url, secret, events}; config file or env; see docs/webhooks.md)" },
  { key: "webhookTimeoutMs", flag: "webhook-timeout", env: "AUTHSVC_WEBHOOK_TIMEOUT", parse: duration(1000, 60_000), default: () => 10_000, doc: "how long a webhook endpoint may take to answer before the attempt counts as failed" },
  { key: "webhookFailureLimit", flag: "webhook-failure-limit", env: "AUTHSVC_WEBHOOK_FAILURE_LIMIT", parse: int(1, 1_000_000), default: () => 200, doc: "failed webhook attempts in a row after which an endpoint is disabled (with a webhook.endpoint_disabled event)" },
  { key: "webhookAllowNetworks", flag: "webhook-allow-networks", env: "AUTHSVC_WEBHOOK_ALLOW_NETWORKS", parse: cidrList, default: () => [], doc: "comma-separated CIDRs of non-public networks webhook endpoints may reach (loopback, private, link-local and metadata addresses are refused otherwise; development mode allows loopback)" },
] });
