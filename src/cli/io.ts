import { createInterface } from "node:readline";
import type { Readable } from "node:stream";

/** Where a command reads and writes: the real terminal, or buffers in tests. */
export interface CliIO {
  out(text: string): void;
  err(text: string): void;
  stdin: Readable;
  env: Record<string, string | undefined>;
  /** True when a person is at the keyboard (stdin and stderr are terminals): commands may ask. */
  isTerminal?: boolean;
  /** Resolves when the user interrupts (SIGINT/SIGTERM); used by long-running commands. */
  onSignal?(handler: (signal: string) => void): () => void;
  /** True for the real process, which `serve --workers` may fork (node:cluster); tests running the CLI in-process serve from one process. */
  canFork?: boolean;
  /** Raw standard error, only when it is a terminal (progress bars redraw a line; never into a log). */
  stderrTTY?: { write(text: string): void; columns?: number };
}

/** A failure with a message for the user and an exit code (1 failed, 2 usage). */
export class CliError extends Error {
  constructor(message: string, readonly exitCode = 1) {
    super(message);
  }
}

export function processIO(): CliIO {
  // `authsvc users list | head` closes the pipe early: that is not an error.
  process.stdout.on("error", (err: NodeJS.ErrnoException) => { if (err.code === "EPIPE") process.exit(0); else throw err; });
  return {
    out: (t) => process.stdout.write(t.endsWith("\n") ? t : t + "\n"),
    err: (t) => process.stderr.write(t.endsWith("\n") ? t : t + "\n"),
    stdin: process.stdin,
    env: process.env,
    stderrTTY: process.stderr.isTTY ? { write: (t) => process.stderr.write(t), get columns() { return process.stderr.columns; } } : undefined,
    isTerminal: Boolean(process.stdin.isTTY && process.stderr.isTTY),
    // The single executable forks too: its workers re-run the binary (cli/serve-cluster.ts).
    canFork: true,
    onSignal: (handler) => {
      const h = (sig: NodeJS.Signals) => handler(sig);
      process.on("SIGINT", h);
      process.on("SIGTERM", h);
      return () => { process.off("SIGINT", h); process.off("SIGTERM", h); };
    },
  };
}

/**
 * Reads a password from stdin: everything sent, minus one trailing newline (from echo). Other
 * whitespace is kept: it is part of the password. Nothing at all is a usage error (exit 2).
 */
export async function readPasswordFromStdin(stdin: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of stdin) chunks.push(typeof c === "string" ? Buffer.from(c) : c);
  const password = Buffer.concat(chunks).toString("utf8").replace(/\r?\n$/, "");
  if (password === "") throw new CliError("no password on standard input (pipe it in: printf '%s' \"$PASSWORD\" | authsvc …)", 2);
  return password;
}

/** Asks a yes/no question on stderr and reads one line from stdin; only "yes" or "y" is yes. */
export async function askYes(io: CliIO, question: string): Promise<boolean> {
  io.err(question);
  const rl = createInterface({ input: io.stdin, terminal: false });
  try {
    for await (const line of rl) return /^\s*(y|yes)\s*$/i.test(line);
    return false;
  } finally {
    rl.close();
  }
}
