import { createServer } from "node:net";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { backends } from "../helpers/backends.js";
import { spawnBin, runBin } from "../helpers/bin.js";

/** Waits until the child's stderr says where it listens; returns the port. */
async function listeningPort(child: ReturnType<typeof spawnBin>): Promise<number> {
  let seen = "";
  return new Promise((resolve, reject) => {
    child.stderr!.on("data", (d) => {
      seen += d;
      const m = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(seen);
      if (m) resolve(Number(m[1]));
    });
    child.on("close", (code) => reject(new Error(`serve exited (${code}) before listening:\n${seen}`)));
  });
}

describe.each(backends)("authsvc serve on $name", (backend) => {
  const cleanup: Array<() => Promise<void>> = [];
  afterEach(async () => {
    while (cleanup.length) await cleanup.pop()!();
  });
  async function database(): Promise<string> {
    const db = await backend.create();
    cleanup.push(db.drop);
    return db.url;
  }

  it("answers /healthz and /readyz on --port 0, and exits 0 on SIGTERM", async () => {
    const child = spawnBin(["serve", "--port", "0", "--mail-catcher-port", "0", "--database", await database()], { env: { AUTHSVC_LOG_LEVEL: "info" } });
    cleanup.push(async () => { if (child.exitCode === null) child.kill("SIGKILL"); });
    const port = await listeningPort(child);
    expect(port).toBeGreaterThan(0);
    const health = await fetch(`http://127.0.0.1:${port}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: "ok" });
    const ready = await fetch(`http://127.0.0.1:${port}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: "ok" });

    child.kill("SIGTERM");
    const r = await child.result;
    expect(r.code, r.stderr).toBe(0);
    expect(r.signal).toBeNull();
    // The banner: where it listens, the mode, where mail goes, and the development warning.
    expect(r.stderr).toContain("(development mode)");
    expect(r.stderr).toMatch(/mail goes to the built-in catcher on 127\.0\.0\.1:0; read it with `authsvc tail-mail`/);
    expect(r.stderr).toContain("Never expose this server publicly");
    expect(r.stderr).toContain('"msg":"shutting down","signal":"SIGTERM"');
    expect(r.stderr).toContain('"msg":"stopped","cut":false');
    // It is really gone: the port no longer answers.
    await expect(fetch(`http://127.0.0.1:${port}/healthz`)).rejects.toThrow();
  });

  it("exits 0 on SIGINT too", async () => {
    const child = spawnBin(["serve", "--port", "0", "--mail-catcher-port", "0", "--database", await database()]);
    cleanup.push(async () => { if (child.exitCode === null) child.kill("SIGKILL"); });
    await listeningPort(child);
    child.kill("SIGINT");
    const r = await child.result;
    expect(r, r.stderr).toMatchObject({ code: 0, signal: null });
  });
});

describe("authsvc serve failures", () => {
  it("--port N on a busy port fails with a clear message (exit 1)", async () => {
    const blocker = createServer();
    await new Promise<void>((r) => blocker.listen(0, "127.0.0.1", () => r()));
    const port = (blocker.address() as AddressInfo).port;
    try {
      const r = await runBin(["serve", "--port", String(port), "--mail-catcher-port", "0", "--database", ":memory:"]);
      expect(r.code).toBe(1);
      expect(r.stderr).toBe(`authsvc: port ${port} on 127.0.0.1 is already in use; stop the other process or choose another with --port\n`);
    } finally {
      blocker.close();
    }
  });

  it("refuses production mode without public URL, SMTP relay and secret (exit 2)", async () => {
    const r = await runBin(["serve", "--production", "--port", "0", "--database", ":memory:"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^authsvc: configuration error: production mode needs --public-url/);
  });

  it("names a bad --host instead of binding somewhere else (exit 1)", async () => {
    const r = await runBin(["serve", "--port", "0", "--host", "192.0.2.123", "--mail-catcher-port", "0", "--database", ":memory:"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/cannot bind to 192\.0\.2\.123/);
  });
});
