import { request as httpRequest } from "node:http";
import { request as httpsRequest } from "node:https";
import { Webhook } from "standardwebhooks";
import { assertAllowedLiteral, BlockedTargetError, createGuardedLookup, type OutboundPolicy } from "../util/outbound-guard.js";

export interface SendResult {
  ok: boolean;
  /** The endpoint's HTTP status; null when there was no answer (refused, timed out, blocked). */
  status: number | null;
  error: string | null;
}

const lookups = new WeakMap<OutboundPolicy, ReturnType<typeof createGuardedLookup>>();

/**
 * POSTs one signed delivery (Standard Webhooks: webhook-id, webhook-timestamp, webhook-signature
 * made by the standardwebhooks library with the endpoint's whsec_ secret). Any 2xx is a success;
 * redirects are not followed (a moved endpoint is re-registered, not chased); the answer's body is
 * not read. The connection goes only where `policy` allows (util/outbound-guard.ts), checked on the
 * resolved address in the socket's own lookup; a refused target is recorded as just "blocked", so
 * the log cannot be used to tell open from closed ports inside the network. Never throws.
 */
export async function sendWebhook(o: { url: string; secret: string; messageId: string; payload: string; now: number; timeoutMs: number; policy: OutboundPolicy }): Promise<SendResult> {
  let signature: string;
  try {
    signature = new Webhook(o.secret).sign(o.messageId, new Date(o.now), o.payload);
  } catch (err) {
    return { ok: false, status: null, error: `cannot sign: ${(err as Error).message}` };
  }
  const url = new URL(o.url);
  try {
    assertAllowedLiteral(o.policy, url);
  } catch {
    return { ok: false, status: null, error: "blocked" };
  }
  let lookup = lookups.get(o.policy);
  if (!lookup) lookups.set(o.policy, (lookup = createGuardedLookup(o.policy)));
  const signal = AbortSignal.timeout(o.timeoutMs);
  const headers = {
    "content-type": "application/json",
    "content-length": String(Buffer.byteLength(o.payload)),
    "user-agent": "authsvc-webhooks",
    "webhook-id": o.messageId,
    "webhook-timestamp": String(Math.floor(o.now / 1000)),
    "webhook-signature": signature,
  };
  return new Promise<SendResult>((resolve) => {
    const send = url.protocol === "https:" ? httpsRequest : httpRequest;
    // agent: false, a connection per delivery: a pooled socket would skip the lookup (and the check).
    const req = send(url, { method: "POST", headers, lookup, agent: false, signal }, (res) => {
      const status = res.statusCode ?? 0;
      res.destroy();
      const ok = status >= 200 && status < 300;
      resolve({ ok, status, error: ok ? null : `HTTP ${status}` });
    });
    req.on("error", (err: Error & { code?: string }) => {
      if (err instanceof BlockedTargetError) return resolve({ ok: false, status: null, error: "blocked" });
      if (signal.aborted) return resolve({ ok: false, status: null, error: `timed out after ${o.timeoutMs} ms` });
      resolve({ ok: false, status: null, error: err.code ?? err.message });
    });
    req.end(o.payload);
  });
}
