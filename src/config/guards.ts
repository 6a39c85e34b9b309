import type { Config, Source } from "./types.js";

/**
 * Everything production mode refuses, named at once (docs/production.md promises one round, not a
 * fix-restart-fix loop): the settings it needs, then the guard rails below. Undefined when none.
 */
export function describeProductionRefusal(c: Readonly<Config>, sources: Readonly<Record<keyof Config, Source>>): string | undefined {
  const missing: string[] = [];
  if (sources.publicUrl === "default") missing.push("--public-url (AUTHSVC_PUBLIC_URL)");
  if (!c.smtpUrl) missing.push("--smtp-url (AUTHSVC_SMTP_URL)");
  if (!c.secret) missing.push("AUTHSVC_SECRET");
  const problems = findProductionProblems(c, sources);
  if (c.bcryptCost < 10) problems.push(`--bcrypt-cost (AUTHSVC_BCRYPT_COST) is ${c.bcryptCost}: production mode needs a cost of 10 or more`);
  if (missing.length === 0 && problems.length === 0) return undefined;
  if (missing.length === 0) return `production mode: ${problems.join("; and ")}`;
  return [`production mode needs ${missing.join(", ")}`, ...problems].join("; and ");
}

/**
 * Production's guard rails, beyond the settings it requires: mistakes that start fine and hurt
 * later. Returns one sentence per problem (what is wrong and what to do); config.ts refuses to
 * start on any. Pure: no environment, no I/O.
 */
export function findProductionProblems(c: Readonly<Config>, sources: Readonly<Record<keyof Config, Source>>): string[] {
  const problems: string[] = [];
  // Over plain http the cookies lose Secure and tokens cross the network readable. A proxy that
  // terminates TLS still means an https public URL: it is the address clients use.
  // A missing public URL is named as missing; its http default is not a second problem.
  if (c.publicUrl.startsWith("http://") && !c.allowHttpPublicUrl && sources.publicUrl !== "default") {
    problems.push(
      `the public URL ${c.publicUrl} is plain http: give the https:// address clients reach (behind a TLS-terminating proxy too, e.g. --public-url https://auth.example.com), ` +
        "or set --allow-http-public-url (AUTHSVC_ALLOW_HTTP_PUBLIC_URL) if clients really reach authsvc over plain http",
    );
  }
  // Mail links and CORS follow the website URL: left at its default, every verification and reset
  // link in production mail points at http://localhost:3000, and nothing else says so.
  if (sources.websiteUrl === "default") {
    problems.push(
      `the website URL is left at its development default ${c.websiteUrl}, so mail links would point there: set --website-url (AUTHSVC_WEBSITE_URL) to your frontend's address, e.g. https://app.example.com, ` +
        "or to the public URL to use the hosted pages",
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
