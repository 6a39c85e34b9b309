import { spawn, type ChildProcess } from "node:child_process";
import { createInterface } from "node:readline";

export interface SdkApp { url: string; child: ChildProcess; errors: () => string }

/**
 * A real backend on supertokens-node (a fixture under test/fixtures/cdi, a child process) whose
 * core is authsvc's /cdi: it prints `{"port":…}` on its first line once it listens.
 */
export async function startSdkApp(script: string, env: Record<string, string>): Promise<SdkApp> {
  const child = spawn(process.execPath, [script], { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
  let errors = "";
  child.stderr!.on("data", (d) => { errors += String(d); });
  const line = await new Promise<string>((ok, fail) => {
    createInterface({ input: child.stdout! }).once("line", ok);
    child.once("exit", (code) => fail(new Error(`the app exited (${code}): ${errors}`)));
  });
  return { url: `http://127.0.0.1:${(JSON.parse(line) as { port: number }).port}`, child, errors: () => errors };
}
