import { spawn } from "node:child_process";
import { createServer } from "node:net";
import { BIN } from "./bin.js";

/** A port that was free a moment ago (for a child `serve`, whose public URL must name its port). */
export function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const s = createServer().once("error", fail).listen(0, "127.0.0.1", () => {
      const { port } = s.address() as { port: number };
      s.close(() => ok(port));
    });
  });
}

/** Starts the built `bin/authsvc serve` in `cwd` and resolves once its banner says it listens. */
export async function startServe(cwd: string, env: NodeJS.ProcessEnv): Promise<{ stop(): Promise<void> }> {
  const child = spawn(process.execPath, [BIN, "serve"], { cwd, env, stdio: ["ignore", "ignore", "pipe"] });
  let seen = "";
  await new Promise<void>((ok, fail) => {
    child.stderr!.on("data", (d) => { seen += d; if (seen.includes("authsvc listening")) ok(); });
    child.once("exit", () => fail(new Error(`serve exited before listening:\n${seen}`)));
  });
  return {
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((ok) => child.once("exit", ok));
      child.kill("SIGTERM");
      await exited;
    },
  };
}
