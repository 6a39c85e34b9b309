import { Webhook } from "standardwebhooks";

export interface SendResult {
  ok: boolean;
  /** The endpoint's HTTP status; null when there was no answer (refused, timed out). */
  status: number | null;
  error: string | null;
}

/**
 * POSTs one signed delivery (Standard Webhooks: webhook-id, webhook-timestamp, webhook-signature
 * made by the standardwebhooks library with the endpoint's whsec_ secret). Any 2xx is a success;
 * redirects are not followed (a moved endpoint is re-registered, not chased); the answer's body is
 * not read. Never throws.
 */
export async function sendWebhook(o: { url: string; secret: string; messageId: string; payload: string; now: number; timeoutMs: number }): Promise<SendResult> {
  let signature: string;
  try {
    signature = new Webhook(o.secret).sign(o.messageId, new Date(o.now), o.payload);
  } catch (err) {
    return { ok: false, status: null, error: `cannot sign: ${(err as Error).message}` };
  }
  try {
    const res = await fetch(o.url, {
      method: "POST",
      redirect: "manual",
      signal: AbortSignal.timeout(o.timeoutMs),
      headers: {
        "content-type": "application/json",
        "user-agent": "authsvc-webhooks",
        "webhook-id": o.messageId,
        "webhook-timestamp": String(Math.floor(o.now / 1000)),
        "webhook-signature": signature,
      },
      body: o.payload,
    });
    await res.body?.cancel().catch(() => {});
    const ok = res.status >= 200 && res.status < 300;
    return { ok, status: res.status, error: ok ? null : `HTTP ${res.status}` };
  } catch (err) {
    const e = err as Error & { cause?: { code?: string; message?: string } };
    const why = e.name === "TimeoutError" ? `timed out after ${o.timeoutMs} ms` : e.cause?.code ?? e.cause?.message ?? e.message;
    return { ok: false, status: null, error: why };
  }
}
