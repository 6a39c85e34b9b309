import { createRequire } from "node:module";
import type { Transporter } from "nodemailer";

/**
 * nodemailer, loaded with the first transport: only the process that delivers mail needs it (a
 * cluster's HTTP workers never do), and it is among the larger packages to load at start-up.
 */
let loaded: typeof import("nodemailer") | undefined;
const nodemailer = (): typeof import("nodemailer") =>
  (loaded ??= (typeof require === "function" ? require("nodemailer") : createRequire(import.meta.url)("nodemailer")) as typeof import("nodemailer"));

/** One message as the outbox worker (or `authsvc mail test`) hands it to the relay. */
export interface OutgoingMail {
  from: string;
  /** Exactly one recipient: the canonical address. */
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** Stable per outbox row, so a receiver can drop the duplicate of a retried delivery. */
  messageId: string;
  headers?: Record<string, string>;
}

export interface MailTransport {
  /** Where mail goes, credentials masked (for logs and the CLI). */
  description: string;
  /** Sends one message; resolves to the relay's reply ("250 2.0.0 Ok: queued as …"), rejects with SmtpError. */
  send(mail: OutgoingMail): Promise<string>;
  close(): void;
}

/** A failed delivery, with the relay's reply when there was one. The message never holds credentials. */
export class SmtpError extends Error {
  override name = "SmtpError";
  /**
   * Whether the relay answered at all: false when no SMTP conversation took place (connection
   * refused, DNS, timeout, TLS), so "could not connect" is never reported as "the relay refused".
   */
  readonly reachedRelay: boolean;
  constructor(message: string, reachedRelay: boolean) {
    super(message);
    this.reachedRelay = reachedRelay;
  }
}

const LOOPBACK = /^(localhost|127(\.\d{1,3}){3}|::1|\[::1\])$/i;
const OPTS = new Set(["starttls", "verify"]);

/**
 * A transport for `smtp://user:pass@host:port` (STARTTLS required, except on loopback hosts) or
 * `smtps://…` (implicit TLS). The relay's certificate is always verified. Two opt-outs exist for
 * development relays and are refused in production mode: `?starttls=optional` (allow plaintext to a
 * non-loopback relay) and `?verify=false` (accept an unverifiable certificate).
 */
export function createSmtpTransport(smtpUrl: string, opts: { production: boolean; options?: Readonly<Record<string, unknown>> }): MailTransport {
  let u: URL;
  try { u = new URL(smtpUrl); } catch { throw new Error("smtpUrl is not a valid URL"); }
  const secure = u.protocol === "smtps:";
  if (!secure && u.protocol !== "smtp:") throw new Error("smtpUrl must start with smtp:// or smtps://");
  for (const key of u.searchParams.keys()) if (!OPTS.has(key)) throw new Error(`smtpUrl: unknown option ?${key}= (known: starttls=optional, verify=false)`);
  const starttlsOptional = u.searchParams.get("starttls") === "optional";
  const verify = u.searchParams.get("verify") !== "false";
  if (opts.production && (starttlsOptional || !verify)) throw new Error("smtpUrl: ?starttls=optional and ?verify=false are for development relays and refused in production mode");
  const host = u.hostname.replace(/^\[|\]$/g, "");
  const loopback = LOOPBACK.test(u.hostname);
  const transporter = nodemailer().createTransport({
    host,
    port: u.port ? Number(u.port) : secure ? 465 : 587,
    secure,
    // Plaintext (and thus credentials in clear) only to a relay on this machine, or when opted out.
    requireTLS: !secure && !loopback && !starttlsOptional,
    auth: u.username ? { user: decodeURIComponent(u.username), pass: decodeURIComponent(u.password) } : undefined,
    tls: { rejectUnauthorized: verify, servername: LOOPBACK.test(host) ? undefined : host },
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 30_000,
    logger: false,
    debug: false,
    // The rooms' additions (Room.smtpOptions): DKIM signing of every message.
    ...opts.options,
  });
  const description = `${u.protocol}//${u.username ? `${decodeURIComponent(u.username)}:****@` : ""}${u.host}${secure ? " (implicit TLS)" : loopback ? " (loopback)" : " (STARTTLS required)"}`;
  return wrap(transporter, description);
}

/** A plaintext transport to the built-in catcher on loopback. */
export function createCatcherTransport(host: string, port: number, options: Readonly<Record<string, unknown>> = {}): MailTransport {
  // Signed like the relay's mail (options), so the catcher shows what recipients will get.
  const transporter = nodemailer().createTransport({ host, port, secure: false, ignoreTLS: true, connectionTimeout: 5_000, greetingTimeout: 5_000, socketTimeout: 10_000, logger: false, ...options });
  return wrap(transporter, `built-in mail catcher on ${host}:${port}`);
}

function wrap(transporter: Transporter, description: string): MailTransport {
  return {
    description,
    send: async (mail) => {
      try {
        const info = await transporter.sendMail({
          from: mail.from,
          to: mail.to,
          // The envelope is given explicitly: exactly one RCPT TO, whatever the headers say.
          envelope: { from: envelopeAddress(mail.from), to: [mail.to] },
          subject: mail.subject,
          text: mail.text,
          html: mail.html,
          messageId: mail.messageId,
          headers: mail.headers,
          disableFileAccess: true,
          disableUrlAccess: true,
        });
        return String(info.response ?? "");
      } catch (err) {
        throw new SmtpError(describeSmtpError(err), relayAnswered(err));
      }
    },
    close: () => transporter.close(),
  };
}

/** The relay's own words when it answered, else the network error (never the transport options). */
export function describeSmtpError(err: unknown): string {
  const e = err as { response?: unknown; code?: unknown; message?: unknown };
  if (typeof e?.response === "string" && e.response) return e.response;
  const msg = typeof e?.message === "string" ? e.message : String(err);
  return typeof e?.code === "string" && !msg.startsWith(e.code) ? `${e.code}: ${msg}` : msg;
}

/** nodemailer sets a response (code) only when the relay said something; connection failures carry none. */
function relayAnswered(err: unknown): boolean {
  const e = err as { response?: unknown; responseCode?: unknown };
  return (typeof e?.response === "string" && e.response !== "") || typeof e?.responseCode === "number";
}

function envelopeAddress(from: string): string {
  const m = /<([^<>\s]+@[^<>\s]+)>\s*$/.exec(from);
  return m ? m[1] : from.trim();
}
