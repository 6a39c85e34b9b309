import type { TestApp } from "./test-app.js";

/** One answer as a limits test looks at it: status, JSON body, Retry-After (seconds or undefined). */
export interface Answer { status: number; body: any; retryAfter: number | undefined; headers: Headers }

/** Sends a request to `<url>/auth<path>` (POST with a JSON body, or GET when body is undefined). */
export async function call(t: TestApp | string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Answer> {
  const base = typeof t === "string" ? t : t.url;
  const res = await fetch(`${base}/auth${path}`, body === undefined
    ? { headers }
    : { method: "POST", headers: { "content-type": "application/json", ...headers }, body: typeof body === "string" ? body : JSON.stringify(body) });
  const text = await res.text();
  let json: unknown;
  try { json = JSON.parse(text); } catch { json = text; }
  const ra = res.headers.get("retry-after");
  return { status: res.status, body: json, retryAfter: ra === null ? undefined : Number(ra), headers: res.headers };
}

export const signin = (email: string, password: string) => ({ formFields: [{ id: "email", value: email }, { id: "password", value: password }] });
export const emailOnly = (email: string) => ({ formFields: [{ id: "email", value: email }] });

/** The answer every limited request gets. */
export const LIMITED = { message: "Too many requests. Please try again later." };

/** status + body + Retry-After, for comparing two answers at once. */
export const shape = (a: Answer) => ({ status: a.status, body: a.body, retryAfter: a.retryAfter });
