import { createHmac, createPublicKey, sign } from "node:crypto";
import { createRemoteJWKSet, jwtVerify } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rotateSigningKey } from "../../src/core/signing-keys.js";
import { backends } from "../helpers/backends.js";
import { runCli } from "../helpers/cli.js";
import { credentials, postJson, signUp } from "../helpers/session-client.js";
import { createTestApp, type TestApp } from "../helpers/test-app.js";

const b64 = (v: unknown) => Buffer.from(typeof v === "string" ? v : JSON.stringify(v)).toString("base64url");
const kidOf = (jwt: string) => JSON.parse(Buffer.from(jwt.split(".")[0], "base64url").toString()).kid as string;

describe.each(backends)("access tokens and JWKS on $name", (backend) => {
  let t: TestApp;
  let issuer: string;
  beforeAll(async () => {
    t = await createTestApp({ backend, start: true });
    issuer = t.config.publicUrl + t.config.apiBasePath;
  });
  afterAll(async () => { await t?.close(); });

  const signInHeader = async (email: string) => {
    const r = await postJson(`${t.url}/auth/signin`, credentials(email), { "st-auth-mode": "header" });
    expect(r.status).toBe(200);
    return r.headers.get("st-access-token")!;
  };
  const jwksVerify = (jwt: string) =>
    jwtVerify(jwt, createRemoteJWKSet(new URL(`${t.url}/auth/jwt/jwks.json`)), { issuer, algorithms: ["RS256"], currentDate: new Date(t.clock.now()) });

  it("a sign-in token verifies with jose against the JWKS fetched over HTTP, before and after rotations", async () => {
    await signUp(t.url, "jwks@example.com", "header");
    const first = await signInHeader("jwks@example.com");
    const v = await jwksVerify(first);
    expect(v.protectedHeader).toMatchObject({ alg: "RS256", typ: "JWT", version: "5" });
    expect(v.payload).toMatchObject({ iss: issuer, tId: "public", parentRefreshTokenHash1: null, antiCsrfToken: null });
    expect(v.payload.exp! - v.payload.iat!).toBe(t.config.accessTokenLifetimeMs / 1000);

    // Rotation in this process: the new key signs at once, the old one stays published.
    await rotateSigningKey(t.app.ctx);
    const second = await signInHeader("jwks@example.com");
    expect(kidOf(second)).not.toBe(kidOf(first));
    await jwksVerify(first);
    await jwksVerify(second);

    // Rotation by the CLI (another process): picked up within the reload interval.
    const cli = await runCli(["keys", "rotate", "--database", t.config.database]);
    expect(cli.code).toBe(0);
    t.clock.advance(61_000);
    const third = await signInHeader("jwks@example.com");
    expect(new Set([kidOf(first), kidOf(second), kidOf(third)]).size).toBe(3);
    for (const jwt of [first, second, third]) await jwksVerify(jwt);
    const keys = ((await (await fetch(`${t.url}/auth/jwt/jwks.json`)).json()) as { keys: unknown[] }).keys as Record<string, unknown>[];
    for (const k of keys) expect(Object.keys(k).sort()).toEqual(["alg", "e", "kid", "kty", "n", "use"]);

    // Once the retired key's window is over it is no longer published or accepted.
    t.clock.advance(t.config.accessTokenLifetimeMs + 121_000);
    const later = ((await (await fetch(`${t.url}/auth/jwt/jwks.json`)).json()) as { keys: unknown[] }).keys as { kid: string }[];
    expect(later.map((k) => k.kid)).toEqual([kidOf(third)]);
  });

  it("discovery names the issuer and the JWKS; both are public", async () => {
    const r = await fetch(`${t.url}/auth/.well-known/openid-configuration`, { headers: { origin: "https://anything.example" } });
    expect(await r.json()).toMatchObject({ issuer, jwks_uri: `${issuer}/jwt/jwks.json` });
    expect(r.headers.get("access-control-allow-origin")).toBe("*");
    expect(r.headers.get("access-control-allow-credentials")).toBeNull();
    expect(r.headers.get("cache-control")).toMatch(/max-age=60/);
  });

  it("refuses forged and malformed tokens with 401 try refresh token", async () => {
    await signUp(t.url, "forger@example.com", "header");
    const real = await signInHeader("forger@example.com");
    const [h, p, s] = real.split(".");
    const header = JSON.parse(Buffer.from(h, "base64url").toString());
    const payload = JSON.parse(Buffer.from(p, "base64url").toString());
    const jwk = (((await (await fetch(`${t.url}/auth/jwt/jwks.json`)).json()) as { keys: unknown[] }).keys as Record<string, string>[]).find((k) => k.kid === header.kid)!;
    const pem = createPublicKey({ key: jwk as never, format: "jwk" }).export({ type: "spki", format: "pem" });
    const { key } = await t.app.ctx.keys.signingKey();
    const ours = (hd: unknown, pl: unknown) => { const d = `${b64(hd)}.${b64(pl)}`; return `${d}.${sign("RSA-SHA256", Buffer.from(d), key).toString("base64url")}`; };
    const hs256 = (secret: string | Buffer) => { const d = `${b64({ ...header, alg: "HS256" })}.${p}`; return `${d}.${createHmac("sha256", secret).update(d).digest("base64url")}`; };
    const nowS = Math.floor(t.clock.now() / 1000);
    const cases: Record<string, string> = {
      "alg none": `${b64({ ...header, alg: "none" })}.${p}.`,
      "alg none with signature": `${b64({ ...header, alg: "none" })}.${p}.${s}`,
      "alg NONE": `${b64({ ...header, alg: "NONE" })}.${p}.`,
      "HS256 with the PEM public key": hs256(String(pem)),
      "HS256 with the JWK n": hs256(jwk.n),
      "tampered payload": `${h}.${b64({ ...payload, sub: "someone-else" })}.${s}`,
      "signature removed": `${h}.${p}.`,
      "padded signature": `${h}.${p}.${s}==`,
      "standard base64 segment": `${Buffer.from(Buffer.from(h, "base64url")).toString("base64")}.${p}.${s}`,
      "unknown kid": ours({ ...header, kid: "d-1" }, payload),
      "path kid": ours({ ...header, kid: "../../dev/null" }, payload),
      "numeric kid": ours({ ...header, kid: 7 }, payload),
      "10 KB kid": ours({ ...header, kid: "k".repeat(10_000) }, payload),
      "jku header": ours({ ...header, kid: "d-2", jku: "http://127.0.0.1:9/jwks" }, payload),
      "crit header": ours({ ...header, crit: ["exp"] }, payload),
      "header not JSON": `${b64("not json")}.${p}.${s}`,
      "wrong issuer": ours(header, { ...payload, iss: "https://evil.example/auth" }),
      "exp as string": ours(header, { ...payload, exp: String(payload.exp) }),
      "exp missing": ours(header, { ...payload, exp: undefined }),
      "exp huge": ours(header, { ...payload, exp: 1e308 }),
      "exp in the past": ours(header, { ...payload, exp: nowS - 61 }),
      "iat in the future": ours(header, { ...payload, iat: nowS + 3600, exp: nowS + 7200 }),
      "nbf in the future": ours(header, { ...payload, nbf: nowS + 3600 }),
      "st-ev missing": ours(header, { ...payload, "st-ev": undefined }),
      "two segments": `${h}.${p}`,
      "garbage": "x".repeat(50),
    };
    for (const [name, jwt] of Object.entries(cases)) {
      const r = await fetch(`${t.url}/auth/user/email/verify`, { headers: { authorization: `Bearer ${jwt}` } });
      expect({ name, status: r.status, body: await r.json() }).toEqual({ name, status: 401, body: { message: "try refresh token" } });
    }
    // The control: the real token and a correctly re-signed one pass.
    expect((await fetch(`${t.url}/auth/user/email/verify`, { headers: { authorization: `Bearer ${real}` } })).status).toBe(200);
    expect((await fetch(`${t.url}/auth/user/email/verify`, { headers: { authorization: `Bearer ${ours(header, payload)}` } })).status).toBe(200);
  });

  it("a refresh token sent as the access token, or credentials in the query string, do not authenticate", async () => {
    const up = await signUp(t.url, "query@example.com", "header");
    const asBearer = await fetch(`${t.url}/auth/user/email/verify`, { headers: { authorization: `Bearer ${up.tokens.refresh}` } });
    expect(asBearer.status).toBe(401);
    const q = await fetch(`${t.url}/auth/user/email/verify?accessToken=${up.tokens.access}&sAccessToken=${up.tokens.access}`);
    expect(q.status).toBe(401);
    expect(await q.json()).toEqual({ message: "unauthorised" });
    const lower = await fetch(`${t.url}/auth/user/email/verify`, { headers: { authorization: `bearer ${up.tokens.access}` } });
    expect(lower.status).toBe(401);
  });
});
