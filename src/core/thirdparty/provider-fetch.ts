import type { CoreContext } from "../context.js";
import { AuthError } from "../errors.js";
import type { Provider } from "./provider-config.js";

/** Largest provider response we read: discovery documents and JWKS are a few KiB. */
const MAX_BODY = 1024 * 1024;

export interface ProviderResponse { status: number; json: unknown }

/** A PROVIDER_ERROR (502) naming the provider; the detail goes to the log, never a secret. */
export function providerError(ctx: CoreContext, provider: Provider, message: string, detail?: Record<string, unknown>): AuthError {
  ctx.logger.warn("third-party provider call failed", { provider: provider.id, reason: message, ...detail });
  return new AuthError("PROVIDER_ERROR", message);
}

/**
 * One outbound call to a provider, bounded in time (the provider's timeoutMs covers connect,
 * headers and body) and in size. Network failures, timeouts and non-JSON bodies become a 502
 * naming the provider; HTTP error statuses are returned for the caller to judge.
 */
export async function callProvider(ctx: CoreContext, provider: Provider, what: string, url: string, init: RequestInit = {}): Promise<ProviderResponse> {
  let res: Response;
  let text: string;
  try {
    res = await fetch(url, {
      ...init,
      headers: { accept: "application/json", ...(init.headers as Record<string, string>) },
      // A token endpoint has no business redirecting a POST that carries a secret.
      redirect: init.method === "POST" ? "error" : "follow",
      signal: AbortSignal.timeout(provider.timeoutMs),
    });
    text = await readLimited(res);
  } catch (err) {
    const e = err as Error & { cause?: { code?: string } };
    if (e.name === "TimeoutError" || e.name === "AbortError") {
      throw providerError(ctx, provider, `The provider ${provider.id} did not answer its ${what} within ${provider.timeoutMs} ms`);
    }
    if (e.message === "response too large") throw providerError(ctx, provider, `The provider ${provider.id} sent an oversized response from its ${what}`);
    throw providerError(ctx, provider, `Could not reach the provider ${provider.id} (${what})`, { code: e.cause?.code ?? e.name });
  }
  let json: unknown;
  if (text.trim() !== "") {
    try { json = JSON.parse(text); } catch {
      // GitHub answers the token endpoint form-encoded unless told otherwise; accept that shape.
      json = /^[\w.-]+=/.test(text) ? Object.fromEntries(new URLSearchParams(text)) : undefined;
    }
  }
  if (json === undefined && res.status < 400) throw providerError(ctx, provider, `The provider ${provider.id} sent an invalid response from its ${what}`, { status: res.status });
  return { status: res.status, json };
}

async function readLimited(res: Response): Promise<string> {
  if (!res.body) return "";
  const declared = Number(res.headers.get("content-length") ?? "0");
  if (declared > MAX_BODY) { await res.body.cancel(); throw new Error("response too large"); }
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_BODY) { await reader.cancel(); throw new Error("response too large"); }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/** An OAuth2 error code from a provider body, if it looks like one (never free text). */
export function oauthErrorCode(json: unknown): string | undefined {
  const e = json && typeof json === "object" ? (json as Record<string, unknown>).error : undefined;
  return typeof e === "string" && /^[a-z0-9_.-]{1,64}$/i.test(e) ? e : undefined;
}
