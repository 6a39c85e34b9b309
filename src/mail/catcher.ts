import type { Store } from "../store/database.js";
import { insertCaughtMail, pruneCaughtMail } from "../store/caught-mail.js";
import type { Clock } from "../util/clock.js";
import type { Logger } from "../util/logger.js";

export interface MailCatcherOptions {
  store: Store;
  clock: Clock;
  logger: Logger;
  host: string;
  /** 0 picks a free port (tests). */
  port: number;
  /** Newest messages kept. */
  retention: number;
  /** Messages older than this are deleted. */
  maxAgeMs: number;
  /** Called once per stored message (metrics). */
  onCaught?: () => void;
}

export interface MailCatcher {
  host: string;
  port: number;
  close(): Promise<void>;
}

const LOOPBACK_HOST = /^(localhost|127(\.\d{1,3}){3}|::1)$/i;
const LOOPBACK_PEER = /^(127(\.\d{1,3}){3}|::1|::ffff:127(\.\d{1,3}){3})$/i;
const MAX_MESSAGE_BYTES = 10 * 1024 * 1024;

/**
 * The built-in SMTP catcher for development: accepts any mail from this machine (no TLS, any or no
 * AUTH) and stores it in `caught_mail`, where `authsvc tail-mail` reads it. It binds to loopback
 * only and also refuses peers that are not loopback, so it can never become an open inbox.
 */
export async function startMailCatcher(o: MailCatcherOptions): Promise<MailCatcher> {
  if (!LOOPBACK_HOST.test(o.host)) throw new Error(`the mail catcher listens on loopback only; ${o.host} is not a loopback address`);
  // The catcher's libraries load when it starts (only the process that runs it: the primary).
  const { SMTPServer } = await import("smtp-server");
  const server = new SMTPServer({
    secure: false,
    disabledCommands: ["STARTTLS"],
    authOptional: true,
    allowInsecureAuth: true,
    banner: "authsvc mail catcher",
    size: MAX_MESSAGE_BYTES,
    logger: false,
    onConnect(session, cb) {
      if (!LOOPBACK_PEER.test(session.remoteAddress)) return cb(new Error("the mail catcher accepts local connections only"));
      cb();
    },
    onAuth(auth, _session, cb) {
      cb(null, { user: auth.username ?? "catcher" });
    },
    onData(stream, session, cb) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("error", (err) => cb(err));
      stream.on("end", () => {
        if ((stream as unknown as { sizeExceeded?: boolean }).sizeExceeded) {
          const err = new Error("552 message too large for the mail catcher") as Error & { responseCode: number };
          err.responseCode = 552;
          return cb(err);
        }
        storeMessage(o, Buffer.concat(chunks), session.envelope).then(() => cb(), (err) => {
          o.logger.error("mail catcher could not store a message", { err });
          cb(new Error("451 could not store the message; try again"));
        });
      });
    },
  });
  server.on("error", (err) => o.logger.warn("mail catcher connection error", { err: err instanceof Error ? err : new Error(String(err)) }));
  await new Promise<void>((resolve, reject) => {
    const onError = (err: Error) => reject(err);
    server.server.once("error", onError);
    server.listen(o.port, o.host, () => { server.server.off("error", onError); resolve(); });
  });
  const addr = server.server.address();
  const port = typeof addr === "object" && addr ? addr.port : o.port;
  o.logger.info("mail catcher listening", { host: o.host, port });
  return {
    host: o.host,
    port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

async function storeMessage(o: MailCatcherOptions, raw: Buffer, envelope: { mailFrom: false | { address: string }; rcptTo: Array<{ address: string }> }): Promise<void> {
  const { default: PostalMime } = await import("postal-mime");
  const parsed = await PostalMime.parse(raw);
  const now = o.clock.now();
  const headers = JSON.stringify(parsed.headers.map((h) => [h.key, h.value]));
  const recipients = envelope.rcptTo.length ? envelope.rcptTo.map((r) => r.address) : (parsed.to ?? []).map((a) => ("address" in a ? a.address ?? "" : ""));
  await o.store.writeTx(async (tx) => {
    for (const to of recipients) {
      await insertCaughtMail(tx, {
        received_at: now,
        mail_from: envelope.mailFrom ? envelope.mailFrom.address : parsed.from && "address" in parsed.from ? parsed.from.address ?? null : null,
        to_address: to.toLowerCase(),
        subject: parsed.subject ?? null,
        text_body: parsed.text ?? null,
        html_body: parsed.html ?? null,
        headers,
      });
    }
    await pruneCaughtMail(tx, { keep: o.retention, olderThan: now - o.maxAgeMs });
  });
  o.onCaught?.();
}
