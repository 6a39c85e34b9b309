/** A tiny HTTP client for the session endpoints, in each delivery mode (tests only). */
export type Mode = "cookie" | "header" | "body";
export const modes: Mode[] = ["cookie", "header", "body"];

export interface Tokens { mode: Mode; access: string; refresh: string }

/** Request headers that select a mode on sign-up / sign-in. */
export function modeHeaders(mode: Mode): Record<string, string> {
  if (mode === "header") return { "st-auth-mode": "header" };
  if (mode === "body") return { "authsvc-auth-mode": "body" };
  return {};
}

export async function postJson(url: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(url, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body) });
}

export const credentials = (email: string, password = "correct horse battery staple") =>
  ({ formFields: [{ id: "email", value: email }, { id: "password", value: password }] });

/** Cookie name → value from a response's Set-Cookie headers. */
export function setCookies(res: Response): Record<string, { value: string; raw: string }> {
  const out: Record<string, { value: string; raw: string }> = {};
  for (const raw of res.headers.getSetCookie()) {
    const [pair] = raw.split(";");
    const eq = pair.indexOf("=");
    out[pair.slice(0, eq)] = { value: decodeURIComponent(pair.slice(eq + 1)), raw };
  }
  return out;
}

/** Reads the tokens a response delivered in `mode` (the JSON body must be passed for body mode). */
export function readTokens(res: Response, mode: Mode, json?: Record<string, unknown>, prev?: Tokens): Tokens {
  let access: string | undefined, refresh: string | undefined;
  if (mode === "cookie") {
    const c = setCookies(res);
    access = c.sAccessToken?.value; refresh = c.sRefreshToken?.value;
  } else if (mode === "header") {
    access = res.headers.get("st-access-token") ?? undefined; refresh = res.headers.get("st-refresh-token") ?? undefined;
  } else {
    access = json?.accessToken as string | undefined; refresh = json?.refreshToken as string | undefined;
  }
  return { mode, access: access || prev?.access || "", refresh: refresh || prev?.refresh || "" };
}

/** Headers that authenticate a request with the access token. */
export function authHeaders(t: Tokens): Record<string, string> {
  if (t.mode === "cookie") return { cookie: `sAccessToken=${t.access}`, rid: "session" };
  return { authorization: `Bearer ${t.access}`, ...(t.mode === "body" ? { "authsvc-auth-mode": "body" } : {}) };
}

/** POST /auth/session/refresh with the refresh token in the mode's way. */
export async function refresh(base: string, t: Tokens): Promise<Response> {
  const headers: Record<string, string> = t.mode === "cookie"
    ? { cookie: `sRefreshToken=${t.refresh}`, rid: "session" }
    : { authorization: `Bearer ${t.refresh}`, rid: "session", ...(t.mode === "body" ? { "authsvc-auth-mode": "body" } : {}) };
  return fetch(`${base}/auth/session/refresh`, { method: "POST", headers });
}

/** Decodes a front-token exactly as the browser SDK does (atob, not base64url). */
/** Refreshes and reads the answer: the new tokens on 200, the old ones otherwise. */
export async function refreshAndRead(base: string, tokens: Tokens): Promise<{ res: Response; json: Record<string, unknown>; tokens: Tokens }> {
  const res = await refresh(base, tokens);
  const json = (await res.json()) as Record<string, unknown>;
  return { res, json, tokens: res.status === 200 ? readTokens(res, tokens.mode, json) : tokens };
}

export function decodeFrontToken(value: string): { uid: string; ate: number; up: Record<string, unknown> } {
  return JSON.parse(decodeURIComponent(escape(atob(value))));
}

/** Signs up (or in) in a mode; returns the response, its JSON and the tokens. */
export async function signUp(base: string, email: string, mode: Mode, path = "/auth/signup") {
  const res = await postJson(base + path, credentials(email), { rid: "thirdpartyemailpassword", ...modeHeaders(mode) });
  const json = (await res.json()) as Record<string, unknown>;
  return { res, json, tokens: readTokens(res, mode, json) };
}

/** The payload of a JWT (no verification: the server checked it; this reads what it says). */
export const jwtPayload = (jwt: string) => JSON.parse(Buffer.from(jwt.split(".")[1], "base64url").toString("utf8"));

/** POST to the API; `body` undefined sends no body at all (seed #4 has none). */
export async function postWithSession(base: string, path: string, tokens: Tokens | undefined, body?: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${base}/auth${path}`, {
    method: "POST",
    headers: { ...(tokens ? authHeaders(tokens) : {}), ...(body === undefined ? {} : { "content-type": "application/json" }), ...headers },
    body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
  });
  const json = (await res.json()) as Record<string, any>;
  return { res, json, tokens: tokens ? readTokens(res, tokens.mode, json, tokens) : undefined };
}
