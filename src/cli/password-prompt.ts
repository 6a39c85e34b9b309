import { createInterface } from "node:readline";
import type { Readable } from "node:stream";
import { CliError, type CliIO } from "./io.js";

/**
 * Asks for a new password on the terminal, twice, without echoing it (raw mode when stdin is a real
 * TTY; a test's stdin just gives lines). Used when a person runs `authsvc admins create` without
 * --password-stdin: a password on the command line would sit in shell history and the process list.
 */
export async function askNewPassword(io: CliIO, what: string): Promise<string> {
  if (!io.isTerminal) throw new CliError("no terminal to ask for the password on: pipe it in with --password-stdin", 2);
  const stdin = io.stdin as RawStdin;
  let first: string;
  let again: string;
  if (stdin.isTTY && typeof stdin.setRawMode === "function") {
    first = await askHidden(io, stdin, `${what}: `);
    again = await askHidden(io, stdin, "Again, to confirm: ");
  } else {
    // Not a real TTY (a test typing for a person): one reader for both lines, so none is lost in its buffer.
    const rl = createInterface({ input: stdin, terminal: false });
    const lines = rl[Symbol.asyncIterator]();
    try {
      io.err(`${what}: `);
      first = String((await lines.next()).value ?? "");
      io.err("Again, to confirm: ");
      again = String((await lines.next()).value ?? "");
    } finally {
      rl.close();
    }
  }
  if (first !== again) throw new CliError("the two passwords differ; nothing was changed", 2);
  if (first === "") throw new CliError("an empty password; nothing was changed", 2);
  return first;
}

type RawStdin = Readable & { isTTY?: boolean; setRawMode?(on: boolean): void };

/** Reads one line in raw mode: nothing typed is echoed. */
async function askHidden(io: CliIO, stdin: RawStdin, question: string): Promise<string> {
  io.err(question);
  const setRaw = (on: boolean) => stdin.setRawMode?.(on);
  setRaw(true);
  stdin.resume();
  try {
    return await new Promise<string>((resolve, reject) => {
      let text = "";
      const onData = (chunk: Buffer) => {
        for (const ch of chunk.toString("utf8")) {
          if (ch === "\r" || ch === "\n") { stdin.off("data", onData); return resolve(text); }
          if (ch === "\u0003") { stdin.off("data", onData); return reject(new CliError("interrupted", 130)); }
          if (ch === "\u007f" || ch === "\b") text = [...text].slice(0, -1).join("");
          else text += ch;
        }
      };
      stdin.on("data", onData);
    });
  } finally {
    setRaw(false);
    stdin.pause();
  }
}
