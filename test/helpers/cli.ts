import { Readable } from "node:stream";
import { main } from "../../src/cli/main.js";
import type { CliIO } from "../../src/cli/io.js";

export interface CliResult { code: number; stdout: string; stderr: string }

/** Runs the CLI in-process with the given arguments, stdin and environment (`terminal`: as if a person typed). */
export async function runCli(args: string[], opts: { stdin?: string; env?: Record<string, string | undefined>; terminal?: boolean } = {}): Promise<CliResult> {
  let stdout = "";
  let stderr = "";
  const io: CliIO = {
    out: (t) => { stdout += t.endsWith("\n") ? t : t + "\n"; },
    err: (t) => { stderr += t.endsWith("\n") ? t : t + "\n"; },
    stdin: Readable.from(opts.stdin === undefined ? [] : [Buffer.from(opts.stdin)]),
    env: { AUTHSVC_BCRYPT_COST: "4", AUTHSVC_LOG_LEVEL: "error", ...opts.env },
    isTerminal: opts.terminal ?? false,
  };
  const code = await main(["node", "authsvc", ...args], io);
  return { code, stdout, stderr };
}
