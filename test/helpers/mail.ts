import { Readable } from "node:stream";
import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";
import PostalMime from "postal-mime";
import { main } from "../../src/cli/main.js";
import type { CliIO } from "../../src/cli/io.js";
import type { App } from "../../src/app.js";
import { listCaughtMail } from "../../src/store/caught-mail.js";
import { viewCaughtMail, type CaughtMailView } from "../../src/mail/caught-mail-view.js";
import { mail } from "../../src/rooms.js";

export interface RelayMessage { from: string; to: string[]; messageId: string; subject: string; text: string; headers: Map<string, string>; /** The message as it arrived, byte for byte (a DKIM check reads it). */ raw: Buffer }

/**
 * A real SMTP relay on loopback (port 0) for delivery tests: records what it accepts; while
 * `reject` is set it refuses every message with that reply (e.g. "550 5.7.1 relay denied").
 */
export async function startRelay(): Promise<{ port: number; url: string; messages: RelayMessage[]; reject: string | undefined; close(): Promise<void> }> {
  const state = {
    messages: [] as RelayMessage[],
    reject: undefined as string | undefined,
  };
  const server = new SMTPServer({
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onData(stream, session, cb) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", async () => {
        if (state.reject) {
          const code = Number(state.reject.slice(0, 3));
          const err = new Error(state.reject.slice(4)) as Error & { responseCode: number };
          err.responseCode = code;
          return cb(err);
        }
        const raw = Buffer.concat(chunks);
        const parsed = await PostalMime.parse(raw);
        state.messages.push({
          raw,
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
          to: session.envelope.rcptTo.map((r) => r.address),
          messageId: parsed.messageId ?? "",
          subject: parsed.subject ?? "",
          text: parsed.text ?? "",
          headers: new Map(parsed.headers.map((h) => [h.key.toLowerCase(), h.value])),
        });
        cb(null, "Ok: queued as TEST" + state.messages.length);
      });
    },
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  const port = (server.server.address() as AddressInfo).port;
  return {
    port,
    url: `smtp://127.0.0.1:${port}`,
    get messages() { return state.messages; },
    get reject() { return state.reject; },
    set reject(v: string | undefined) { state.reject = v; },
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

/** Polls the caught_mail table until a message to `to` (after id `afterId`) arrives. */
export async function waitForCaughtMail(app: App, to: string, opts: { afterId?: number; timeoutMs?: number; action?: string } = {}): Promise<CaughtMailView> {
  const deadline = Date.now() + (opts.timeoutMs ?? 10_000);
  for (;;) {
    const rows = await listCaughtMail(app.store.db, { afterId: opts.afterId, to });
    const hit = rows.map((r) => viewCaughtMail(mail, r)).find((v) => !opts.action || v.action === opts.action);
    if (hit) return hit;
    if (Date.now() > deadline) throw new Error(`no mail to ${to} within the timeout`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/**
 * Runs the CLI in-process like runCli, but lets the test see stderr as it is written (to know when
 * `tail-mail --wait` has taken its starting point) and send it SIGINT.
 */
export function startCli(args: string[], env: Record<string, string | undefined> = {}) {
  let stdout = "";
  let stderr = "";
  const watchers: Array<{ re: RegExp; resolve: () => void }> = [];
  const handlers = new Set<(s: string) => void>();
  const io: CliIO = {
    out: (t) => { stdout += t.endsWith("\n") ? t : t + "\n"; },
    err: (t) => {
      stderr += t.endsWith("\n") ? t : t + "\n";
      for (const w of watchers) if (w.re.test(stderr)) w.resolve();
    },
    stdin: Readable.from([]),
    env: { AUTHSVC_BCRYPT_COST: "4", AUTHSVC_LOG_LEVEL: "error", ...env },
    onSignal: (h) => { handlers.add(h); return () => handlers.delete(h); },
  };
  const done = main(["node", "authsvc", ...args], io).then((code) => ({ code, stdout, stderr }));
  return {
    done,
    stdout: () => stdout,
    stderrMatches: (re: RegExp) => new Promise<void>((resolve, reject) => {
      if (re.test(stderr)) return resolve();
      watchers.push({ re, resolve });
      void done.then(() => reject(new Error(`CLI ended before printing ${re}: ${stderr}`)));
    }),
    interrupt: () => { for (const h of handlers) h("SIGINT"); },
  };
}

/** Polls `check` until it returns true (or throws after the timeout). */
export async function eventually(check: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error("condition not met within the timeout");
    await new Promise((r) => setTimeout(r, 25));
  }
}
