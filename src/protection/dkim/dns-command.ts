import { Resolver } from "node:dns/promises";
import { isIP } from "node:net";
import type { Config } from "../../config/types.js";
import { CommandError, type CommandSpec } from "../../core/commands.js";
import { dkimKeyOf, dkimRecord, mailDomain } from "./key.js";

/** One record to publish, and what DNS holds at its name now (when it could be asked). */
export interface MailDnsRecord {
  kind: "SPF" | "DKIM" | "DMARC";
  name: string;
  type: "TXT";
  value: string;
  /** What DNS answered: the same record, another of its kind, none, or no answer at all (with why). */
  found: { status: "matches" | "differs" | "missing" | "unknown"; values?: string[]; error?: string };
}

/** The records to publish for the --mail-from domain: SPF for the relay, DKIM for the key, a DMARC policy. */
export function mailDnsRecords(config: Readonly<Config>): Omit<MailDnsRecord, "found">[] {
  const domain = mailDomain(config.mailFrom);
  const relay = config.smtpUrl ? new URL(config.smtpUrl).hostname.replace(/^\[|\]$/g, "") : undefined;
  const sender = relay === undefined ? "mx" : isIP(relay) === 4 ? `ip4:${relay}` : isIP(relay) === 6 ? `ip6:${relay}` : `a:${relay}`;
  const out: Omit<MailDnsRecord, "found">[] = [{ kind: "SPF", name: domain, type: "TXT", value: `v=spf1 ${sender} ~all` }];
  const key = dkimKeyOf(config);
  if (key) out.push({ kind: "DKIM", name: `${key.selector}._domainkey.${domain}`, type: "TXT", value: dkimRecord(key) });
  out.push({ kind: "DMARC", name: `_dmarc.${domain}`, type: "TXT", value: `v=DMARC1; p=quarantine; adkim=r; aspf=r; rua=mailto:postmaster@${domain}` });
  return out;
}

/** Asks DNS for each record's name (one try, a short timeout): never throws, an unreachable DNS is "unknown". */
export async function lookUpRecords(records: readonly Omit<MailDnsRecord, "found">[], dnsServer?: string): Promise<MailDnsRecord[]> {
  const resolver = new Resolver({ timeout: 2000, tries: 1 });
  if (dnsServer) resolver.setServers([dnsServer]);
  return Promise.all(records.map(async (r) => ({ ...r, found: await lookUp(resolver, r) })));
}

const tag = (kind: MailDnsRecord["kind"]) => ({ SPF: /^v=spf1(\s|$)/i, DKIM: /^v=DKIM1(;|\s|$)/i, DMARC: /^v=DMARC1(;|\s|$)/i })[kind];
const squash = (v: string) => v.replace(/\s+/g, "").toLowerCase();

async function lookUp(resolver: Resolver, r: Omit<MailDnsRecord, "found">): Promise<MailDnsRecord["found"]> {
  let txt: string[][];
  try {
    txt = await resolver.resolveTxt(r.name);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? "";
    if (code === "ENOTFOUND" || code === "ENODATA") return { status: "missing" };
    return { status: "unknown", error: code || (err as Error).message };
  }
  const values = txt.map((chunks) => chunks.join("")).filter((v) => tag(r.kind).test(v));
  if (!values.length) return { status: "missing" };
  const same = r.kind === "DKIM" ? values.some((v) => keyOf(v) === keyOf(r.value)) : values.some((v) => squash(v) === squash(r.value));
  return { status: same ? "matches" : "differs", values };
}

const keyOf = (record: string) => /(?:^|;)\s*p=([^;]*)/.exec(record)?.[1].replace(/\s+/g, "");

/** A TXT value as DNS zone files take it: strings of at most 255 characters, quoted. */
export function zoneStrings(value: string): string {
  const parts: string[] = [];
  for (let i = 0; i < value.length; i += 255) parts.push(`"${value.slice(i, i + 255)}"`);
  return parts.join(" ");
}

function describeFound(f: MailDnsRecord["found"]): string {
  if (f.status === "unknown") return `could not look it up (${f.error}): check it once DNS can be reached`;
  if (f.status === "missing") return "not published yet";
  if (f.status === "matches") return "published, the same";
  return `published, but different: ${f.values!.join(" | ")}`;
}

/** `authsvc mail dns`: the records to publish, and what DNS holds now. */
export const mailDnsCommand: CommandSpec = {
  name: "dns",
  under: "mail",
  layout: "settings",
  description: "print the SPF, DKIM and DMARC records to publish for the --mail-from domain, and what DNS holds now",
  options: [{ flags: "--dns-server <ip[:port]>", description: "ask this DNS server instead of the system's" }],
  action: async (run) => {
    const config = run.config();
    if (!/@[^@\s>]+\.[^@\s>]+>?\s*$/.test(config.mailFrom)) throw new CommandError(`--mail-from ${JSON.stringify(config.mailFrom)} has no domain of its own to publish records for`, 2);
    const records = await lookUpRecords(mailDnsRecords(config), run.flags.dnsServer as string | undefined);
    if (run.flags.json) return run.json({ domain: mailDomain(config.mailFrom), signed: config.dkimPrivateKey !== undefined, records });
    run.out(`DNS records for ${mailDomain(config.mailFrom)} (the domain of --mail-from):`);
    for (const r of records) run.out(`\n${r.kind}\n  ${r.name}. IN TXT ${zoneStrings(r.value)}\n  in DNS: ${describeFound(r.found)}`);
    if (!config.dkimPrivateKey) run.out("\nDKIM: no --dkim-private-key is set, so mail is not signed (openssl genrsa -out dkim.pem 2048; chmod 600 dkim.pem).");
  },
};
