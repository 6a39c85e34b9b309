import type { Config, Source } from "./types.js";

/**
 * Production's guard rails, beyond the settings it requires: mistakes that start fine and hurt
 * later. Returns one sentence per problem (what is wrong and what to do); config.ts refuses to
 * start on any. Pure: no environment, no I/O.
 */
export function findProductionProblems(c: Readonly<Config>, sources: Readonly<Record<keyof Config, Source>>): string[] {
  const problems: string[] = [];
  // Over plain http the cookies lose Secure and tokens cross the network readable. A proxy that
  // terminates TLS still means an https public URL: it is the address clients use.
  if (c.publicUrl.startsWith("http://") && !c.allowHttpPublicUrl) {
    problems.push(
      `the public URL ${c.publicUrl} is plain http: give the https:// address clients reach (behind a TLS-terminating proxy too, e.g. --public-url https://auth.example.com), ` +
        "or set --allow-http-public-url (AUTHSVC_ALLOW_HTTP_PUBLIC_URL) if clients really reach authsvc over plain http",
    );
  }
  // Mail "from localhost" is refused or junked by receiving servers (no SPF/DKIM can match it).
  const domain = mailDomain(c.mailFrom);
  if (domain === undefined || isLocalDomain(domain)) {
    const how = sources.mailFrom === "default" ? "the default sender" : "--mail-from (AUTHSVC_MAIL_FROM)";
    problems.push(`${how} ${JSON.stringify(c.mailFrom)} is not an address at a real domain: set --mail-from (AUTHSVC_MAIL_FROM) to one your SMTP relay may send from, e.g. "Example <no-reply@example.com>"`);
  }
  return problems;
}

/** The domain of `Name <user@domain>` or `user@domain`, lowercased; undefined when there is none. */
function mailDomain(from: string): string | undefined {
  const address = /<([^>]*)>\s*$/.exec(from)?.[1] ?? from;
  const at = address.lastIndexOf("@");
  return at < 0 ? undefined : address.slice(at + 1).trim().replace(/\.$/, "").toLowerCase() || undefined;
}

function isLocalDomain(domain: string): boolean {
  return domain === "localhost" || domain.endsWith(".localhost") || domain === "localdomain" || domain.endsWith(".local") ||
    !domain.includes(".") || /^\[?(127\.|::1\]?$)/.test(domain);
}
