// Starting and stopping the servers the bench measures: the built CLI (`bin/authsvc serve`) and the
// h3 hello-world ceiling. Each is its own process; the port is read from its banner.
import { spawn } from "node:child_process";
import { join } from "node:path";
import { build } from "esbuild";
import { root } from "../build-info.mjs";

/** Starts a process that prints `listening on http://127.0.0.1:PORT`; resolves { url, stop }. */
export async function startListening(args, env = {}) {
  const child = spawn(process.execPath, args, { stdio: ["ignore", "ignore", "pipe"], env: { ...process.env, ...env } });
  let buf = "";
  const port = await new Promise((resolve, reject) => {
    child.stderr.on("data", (d) => { buf += d; const m = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(buf); if (m) resolve(Number(m[1])); });
    child.on("exit", (code) => reject(new Error(`${args.join(" ")} exited with ${code}: ${buf}`)));
  });
  return {
    url: `http://127.0.0.1:${port}`,
    pid: child.pid,
    stop: () => new Promise((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once("exit", () => resolve());
      child.kill("SIGTERM");
    }),
  };
}

/**
 * `authsvc serve` on the given database, quiet, without the mail catcher, and without rate limits:
 * floods of sign-ins from one IP are what they exist to stop. What they cost is measured by
 * scripts/bench/limits.mjs (limits on vs off).
 */
export function startAuthsvc(database, { bcryptCost, env } = {}) {
  return startListening(["bin/authsvc", "serve", "--port", "0", "--host", "127.0.0.1", "--database", database,
    "--bcrypt-cost", String(bcryptCost), "--no-mail-catcher", "--no-rate-limits", "--log-level", "warn"], env);
}

/** The hello-world ceiling, bundled from hello-server.ts so it runs src/http/server.ts itself. */
export async function startHello() {
  const outfile = join(root, "node_modules/.cache/authsvc/hello-server.mjs");
  await build({ absWorkingDir: root, entryPoints: ["scripts/bench-lib/hello-server.ts"], outfile, bundle: true, format: "esm", platform: "node", target: "node20.19", packages: "external", logLevel: "warning" });
  return startListening([outfile]);
}
