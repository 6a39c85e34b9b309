import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/**
 * A bug that throws asynchronously on a request's behalf (a timer, an emitter listener, an
 * unawaited promise) must not end the process: it is logged with the request id, answered 500 when
 * nothing was sent yet, and the server keeps serving. Runs the real listener stack in a child
 * process, since vitest fails any run in which an error goes uncaught in its own process.
 */
const root = fileURLToPath(new URL("../..", import.meta.url));
const bundle = `${root}dist/test/throwing-server.mjs`;

describe("the listener stack under failing handlers", () => {
  let child: ChildProcess;
  let base = "";
  let out = "";
  let err = "";

  beforeAll(async () => {
    await build({ absWorkingDir: root, entryPoints: ["test/http/fixtures/throwing-server.ts"], outfile: bundle, bundle: true, platform: "node", format: "esm", target: "node20.19", packages: "external", logLevel: "warning" });
    child = spawn(process.execPath, [bundle], { cwd: root, stdio: ["ignore", "pipe", "pipe"] });
    child.stderr!.on("data", (d) => { err += d; });
    base = await new Promise<string>((resolve, reject) => {
      child.stdout!.on("data", (d) => { out += d; const m = /PORT (\d+)/.exec(out); if (m) resolve(`http://127.0.0.1:${m[1]}`); });
      child.on("exit", (code) => reject(new Error(`exited ${code}: ${err}`)));
    });
  });
  afterAll(() => { child?.kill("SIGTERM"); });

  // Complete lines only: the last one may still be arriving.
  const logged = () => err.split("\n").slice(0, -1).filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);
  /** The child's log reaches us through a pipe, after its answer: wait for the line (up to 5 s). */
  const loggedEventually = async (want: Record<string, unknown>) => {
    for (let i = 0; i < 100 && !logged().some((l) => Object.entries(want).every(([k, v]) => l[k] === v)); i++) await new Promise((r) => setTimeout(r, 50));
    return logged();
  };

  it("a throw from a timer the request started: 500 with the request id, logged with it, server alive", async () => {
    const res = await fetch(`${base}/timer`);
    expect(res.status).toBe(500);
    expect(await res.json()).toEqual({ message: "Internal Error" });
    const id = res.headers.get("x-request-id");
    expect(id).toBeTruthy();
    expect(await loggedEventually({ msg: "request failed", requestId: id })).toContainEqual(expect.objectContaining({ level: "error", msg: "request failed", requestId: id, path: "/timer" }));
    expect((await fetch(`${base}/ok`)).status).toBe(200);
  });

  it("an unawaited rejection: 500, and the server keeps serving", async () => {
    const res = await fetch(`${base}/reject`);
    expect(res.status).toBe(500);
    expect((await fetch(`${base}/ok`)).status).toBe(200);
  });

  it("a throw from a listener after the answer was sent: the answer stands, the error is logged, the server lives", async () => {
    const res = await fetch(`${base}/after`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ sent: true });
    const id = res.headers.get("x-request-id");
    expect(await loggedEventually({ msg: "request failed", requestId: id })).toContainEqual(expect.objectContaining({ msg: "request failed", requestId: id }));
    expect((await fetch(`${base}/ok`)).status).toBe(200);
    expect(child.exitCode).toBeNull();
  });

  it("an error that belongs to no request is handed to onFatal (serve then shuts down with exit 1)", async () => {
    await fetch(`${base}/outside`);
    expect(await loggedEventually({ msg: "uncaught error outside any request" })).toContainEqual(expect.objectContaining({ msg: "uncaught error outside any request" }));
    for (let i = 0; i < 100 && !out.includes("FATAL outside"); i++) await new Promise((r) => setTimeout(r, 50));
    expect(out).toContain("FATAL outside");
  });
});
