import type { TestApp } from "../../helpers/test-app.js";

export const KEY = "pI_hgsx2-KZTMA_s13XIf1AkX6S1uVmCxM6AnGwNM_U";

export interface AdminResponse { status: number; body: any; headers: Headers }

/** Calls the admin API; `key` null sends no Authorization header. */
export async function admin(t: TestApp, method: string, path: string, body?: unknown, key: string | null = KEY, headers: Record<string, string> = {}): Promise<AdminResponse> {
  const res = await fetch(`${t.url}/admin/v1${path}`, {
    method,
    headers: { ...(key === null ? {} : { authorization: `Bearer ${key}` }), ...(body === undefined ? {} : { "content-type": "application/json" }), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  let json: any;
  try { json = JSON.parse(text); } catch { json = text; }
  return { status: res.status, body: json, headers: res.headers };
}

/** Anything that would betray a password or its hash in a response. */
export const SECRET_SHAPES = /bcrypt|\$2[aby]\$|passwordHash|password_hash/i;
