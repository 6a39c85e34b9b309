import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { solveChallenge, type Challenge } from "altcha-lib";
import { deriveKey } from "altcha-lib/algorithms/sha";
import type { TestApp } from "../helpers/test-app.js";

/** Fetches a challenge from the server and solves it as the widget does: the header's value (base64 JSON). */
export async function solveCaptcha(t: TestApp): Promise<string> {
  const res = await fetch(`${t.url}/auth/captcha/challenge`);
  if (res.status !== 200) throw new Error(`challenge: HTTP ${res.status}`);
  const challenge = (await res.json()) as Challenge;
  const solution = await solveChallenge({ challenge, deriveKey });
  if (!solution) throw new Error("no solution");
  return Buffer.from(JSON.stringify({ challenge, solution })).toString("base64");
}

/**
 * A stand-in for Turnstile's and hCaptcha's siteverify (their real endpoints cannot be reached
 * here): form POSTs in, `{success}` out; a token starting with "good" passes. Records each request.
 */
export async function startSiteverify(): Promise<{ url: string; requests: URLSearchParams[]; close(): Promise<void> }> {
  const requests: URLSearchParams[] = [];
  const server: Server = createServer(async (req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const form = new URLSearchParams(Buffer.concat(chunks).toString("utf8"));
    requests.push(form);
    const ok = req.method === "POST" && form.get("secret") === "test-secret" && (form.get("response") ?? "").startsWith("good");
    res.setHeader("content-type", "application/json");
    res.end(JSON.stringify(ok ? { success: true, hostname: "localhost" } : { success: false, "error-codes": ["invalid-input-response"] }));
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/siteverify`,
    requests,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
