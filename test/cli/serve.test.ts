import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import { connect, createServer } from "node:net";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { backends } from "../helpers/backends.js";
import { spawn } from "node:child_process";
import { BIN, spawnBin, runBin } from "../helpers/bin.js";
import { runCli } from "../helpers/cli.js";

const PW = "correct horse battery staple";

/** Resolves once the child's stderr (so far or later) matches. */
function stderrMatches(child: ReturnType<typeof spawnBin>, re: RegExp): Promise<void> {
  let seen = "";
  return new Promise((resolve, reject) => {
    child.stderr!.on("data", (d) => { seen += d; if (re.test(seen)) resolve(); });
    void child.result.then((r) => (re.test(r.stderr) ? resolve() : reject(new Error(`no ${re} in:\n${r.stderr}`))));
  });
}

/** POST /auth/signin on its own connection; `sent` resolves once the request is fully written. */
function signInOnce(port: number, email: string, password: string) {
  const payload = JSON.stringify({ formFields: [{ id: "email", value: email }, { id: "password", value: password }] });
  let sent!: () => void;
  const written = new Promise<void>((r) => { sent = r; });
  const answer = new Promise<{ status: number; body: Record<string, unknown> }>((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port, path: "/auth/signin", method: "POST", agent: false, headers: { "content-type": "application/json", rid: "emailpassword", "st-auth-mode": "header", connection: "close" } }, (res) => {
      let text = "";
      res.on("data", (c) => { text += c; });
      res.on("end", () => resolve({ status: res.statusCode!, body: JSON.parse(text) }));
    });
    req.on("error", reject);
    req.on("finish", () => sent());
    req.end(payload);
  });
  return { sent: written, answer };
}

/** The error code of a fresh TCP connection to the port ("connected" if it was accepted). */
function connectError(port: number): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    socket.on("connect", () => { socket.destroy(); resolve("connected"); });
    socket.on("error", (err: NodeJS.ErrnoException) => resolve(err.code ?? err.message));
  });
}

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
    // serve runs a worker per core by default; with several, /readyz says how many are ready (the
    // banner comes when the first listens; the others follow).
    const cores = availableParallelism();
    const expected = cores > 1 ? { status: "ok", workers: { ready: cores, total: cores } } : { status: "ok" };
    let ready: { status: number; body: unknown } = { status: 0, body: undefined };
    for (const deadline = Date.now() + 60_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 100))) {
      const res = await fetch(`http://127.0.0.1:${port}/readyz`);
      ready = { status: res.status, body: await res.json() };
      if (JSON.stringify(ready.body) === JSON.stringify(expected)) break;
    }
    expect(ready).toEqual({ status: 200, body: expected });

    child.kill("SIGTERM");
    const r = await child.result;
    expect(r.code, r.stderr).toBe(0);
    expect(r.signal).toBeNull();
    // The banner: where it listens, the mode, where mail goes, and the development warning.
    expect(r.stderr).toContain("(development mode)");
    // --mail-catcher-port 0: the banner names the port the catcher really got, the one the log names.
    const caught = /"msg":"mail catcher listening","host":"127\.0\.0\.1","port":(\d+)/.exec(r.stderr);
    expect(caught, r.stderr).not.toBeNull();
    expect(Number(caught![1])).toBeGreaterThan(0);
    // The test launches this checkout's ./bin/authsvc, so the banner names the command that way.
    expect(r.stderr).toContain(`mail goes to the built-in catcher on 127.0.0.1:${caught![1]}; read it with \`./bin/authsvc tail-mail\``);
    expect(r.stderr).toContain("Never expose this server publicly");
    // The development inbox, at the address it really listens on.
    expect(r.stderr).toContain(`inbox:      http://127.0.0.1:${port}/_dev/mail`);
    expect(r.stderr).toContain('"msg":"shutting down","signal":"SIGTERM"');
    expect(r.stderr).toContain('"msg":"stopped","cut":false');
    // A first start applies every migration in one line, and the banner is the last thing it prints
    // (nothing pushes it off the screen): from "authsvc listening" to the shutdown, only its lines.
    const lines = r.stderr.split("\n");
    expect(lines.filter((l) => l.includes("applied"))).toEqual([expect.stringMatching(/"msg":"applied \d+ migrations","count":\d+,"first":"001-initial","last":"\d{3}-[\w-]+"/)]);
    const banner = lines.findIndex((l) => l.startsWith("authsvc listening"));
    const stop = lines.findIndex((l) => l.includes('"msg":"shutting down"'));
    expect(banner).toBeGreaterThan(0);
    expect(lines.slice(banner + 1, stop).filter((l) => !l.startsWith("  ")), r.stderr).toEqual([]);
    // It is really gone: the port no longer answers.
    await expect(fetch(`http://127.0.0.1:${port}/healthz`)).rejects.toThrow();
  });

  it("started through npm (npx), stops gracefully when its launcher is killed instead of living on as an orphan", async () => {
    // npx runs `sh -c 'authsvc' serve`; a SIGTERM to npx kills the shell but never reaches node.
    const db = await database();
    const child = spawn("sh", ["-c", `"${process.execPath}" "${BIN}" serve --port 0 --mail-catcher-port 0 --database "${db}"; :`], {
      env: { PATH: process.env.PATH, AUTHSVC_BCRYPT_COST: "4", AUTHSVC_LOG_LEVEL: "info", npm_command: "exec" },
      stdio: ["ignore", "pipe", "pipe"],
    }) as ReturnType<typeof spawnBin>;
    let stderr = "";
    child.stderr!.on("data", (d) => { stderr += d; });
    // The pipes close only when the server (sh's child) has exited too.
    const closed = new Promise<void>((resolve) => child.on("close", () => resolve()));
    cleanup.push(async () => { child.kill("SIGKILL"); });
    const port = await listeningPort(child);
    // If the server fails to notice, it must not outlive the test as a real orphan: note its pid.
    const server = Number(readFileSync(`/proc/${child.pid}/task/${child.pid}/children`, "utf8").trim().split(" ")[0]);
    expect(server).toBeGreaterThan(1);
    cleanup.push(async () => { try { process.kill(server, "SIGKILL"); } catch { /* already gone */ } });
    child.kill("SIGKILL"); // the launcher dies; the server is re-parented
    await closed;
    expect(stderr).toMatch(/"msg":"shutting down","signal":"launcher exited"/);
    expect(stderr).toMatch(/"msg":"stopped"/);
    expect(await connectError(port)).toBe("ECONNREFUSED");
  });

  it("exits 0 on SIGINT too", async () => {
    const child = spawnBin(["serve", "--port", "0", "--mail-catcher-port", "0", "--database", await database()]);
    cleanup.push(async () => { if (child.exitCode === null) child.kill("SIGKILL"); });
    await listeningPort(child);
    child.kill("SIGINT");
    const r = await child.result;
    expect(r, r.stderr).toMatchObject({ code: 0, signal: null });
  });

  it("finishes five in-flight sign-ins on SIGTERM, then refuses new connections and exits 0 (security-bar R5)", async () => {
    const db = await database();
    // A real hash cost, so the sign-ins are still hashing when the signal comes.
    const env = { AUTHSVC_BCRYPT_COST: "10", AUTHSVC_LOG_LEVEL: "info" };
    const created = await runCli(["create-user", "--email", "ada@example.com", "--password-stdin", "--database", db, "--create"], { stdin: PW, env });
    expect(created.code, created.stderr).toBe(0);
    const child = spawnBin(["serve", "--port", "0", "--mail-catcher-port", "0", "--database", db], { env });
    cleanup.push(async () => { if (child.exitCode === null) child.kill("SIGKILL"); });
    const port = await listeningPort(child);

    // One connection per request (no keep-alive pool), each written out in full before the clock starts.
    const signIns = Array.from({ length: 5 }, () => signInOnce(port, "ada@example.com", PW));
    await Promise.all(signIns.map((s) => s.sent));
    await new Promise((r) => setTimeout(r, 10));
    child.kill("SIGTERM");
    const answers = await Promise.all(signIns.map((s) => s.answer));
    expect(answers.map((a) => [a.status, a.body.status])).toEqual(Array.from({ length: 5 }, () => [200, "OK"]));

    await stderrMatches(child, /"msg":"shutting down","signal":"SIGTERM"/);
    expect(await connectError(port)).toBe("ECONNREFUSED");
    const r = await child.result;
    expect(r.code, r.stderr).toBe(0);
    expect(r.signal).toBeNull();
    expect(r.stderr).toContain('"msg":"stopped","cut":false');
  });
});

describe("authsvc serve failures", () => {
  it("a missing --mail-templates-dir is a clean 'could not start' (exit 1), no stack trace", async () => {
    const r = await runBin(["serve", "--port", "0", "--mail-catcher-port", "0", "--database", ":memory:", "--mail-templates-dir", "/nonexistent-authsvc-templates"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe("authsvc: could not start: invalid value for mailTemplatesDir (--mail-templates-dir): mail templates folder /nonexistent-authsvc-templates does not exist\n");
  });

  it("a template with an unknown placeholder names the file (exit 1)", async () => {
    const dir = mkdtempSync(join(tmpdir(), "authsvc-templates-"));
    try {
      writeFileSync(join(dir, "password-reset.txt"), "Go to {{lnk}}");
      const r = await runBin(["serve", "--port", "0", "--mail-catcher-port", "0", "--database", ":memory:", "--mail-templates-dir", dir]);
      expect(r.code).toBe(1);
      expect(r.stderr).toBe(`authsvc: could not start: invalid value for mailTemplatesDir (--mail-templates-dir): mail template ${join(dir, "password-reset.txt")}: unknown placeholder {{lnk}}\n`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("an unopenable database is a clean 'could not start' naming it (exit 1)", async () => {
    const r = await runBin(["serve", "--port", "0", "--mail-catcher-port", "0", "--database", "/nonexistent-authsvc-dir/a.db"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe("authsvc: could not start: cannot create the SQLite database /nonexistent-authsvc-dir/a.db: the folder /nonexistent-authsvc-dir does not exist; create it (mkdir -p /nonexistent-authsvc-dir) or point --database (AUTHSVC_DATABASE) at another path\n");
  });

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
