import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";

/** The real CLI entry point (built by test/global-setup.ts), as `npx authsvc` runs it. */
export const BIN = fileURLToPath(new URL("../../bin/authsvc", import.meta.url));

export interface BinResult { code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }

/** Starts `bin/authsvc` as a child process with a fast hash and quiet logs unless `env` says otherwise. */
export function spawnBin(args: string[], opts: { env?: Record<string, string>; stdin?: string } = {}): ChildProcess & { result: Promise<BinResult> } {
  const child = spawn(process.execPath, [BIN, ...args], {
    env: { PATH: process.env.PATH, AUTHSVC_BCRYPT_COST: "4", AUTHSVC_LOG_LEVEL: "error", ...opts.env },
    stdio: ["pipe", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout!.on("data", (d) => { stdout += d; });
  child.stderr!.on("data", (d) => { stderr += d; });
  child.stdin!.end(opts.stdin ?? "");
  const result = new Promise<BinResult>((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
  return Object.assign(child, { result });
}

/** Runs `bin/authsvc` to completion. */
export function runBin(args: string[], opts: { env?: Record<string, string>; stdin?: string } = {}): Promise<BinResult> {
  return spawnBin(args, opts).result;
}
