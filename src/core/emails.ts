import { domainToASCII } from "node:url";

/**
 * Canonical form of an address: trimmed, lowercased, IDN domain in punycode. One account per
 * canonical address, whatever case or script the user typed it in.
 */
export function canonicalEmail(input: string): string {
  const s = input.trim().toLowerCase();
  const at = s.lastIndexOf("@");
  if (at < 0) return s;
  const domain = s.slice(at + 1);
  // eslint-disable-next-line no-control-regex
  const ascii = /^[\x00-\x7f]*$/.test(domain) ? domain : domainToASCII(domain) || domain;
  return s.slice(0, at + 1) + ascii;
}

// The SuperTokens default validator's pattern (a local part without specials or a quoted string,
// then an IPv4 literal or dotted labels ending in a letters-only TLD). It also rules out CR/LF,
// commas, semicolons and display names, so no address can inject a mail header.
const pattern =
  /^(([^<>()[\]\\.,;:\s@"]+(\.[^<>()[\]\\.,;:\s@"]+)*)|(".+"))@((\[[0-9]{1,3}\.[0-9]{1,3}\.[0-9]{1,3}\.[0-9]{1,3}\])|(([a-zA-Z\-0-9]+\.)+[a-zA-Z]{2,}))$/;

/** True for an address we accept (checked on the canonical form). */
export function isValidEmail(canonical: string): boolean {
  // eslint-disable-next-line no-control-regex
  return canonical.length <= 254 && !/[\x00-\x1f\x7f"]/.test(canonical) && pattern.test(canonical);
}

/**
 * True for an address no mail can reach: RFC 2606 reserves the `.invalid` TLD, which is where
 * the stand-in address of a provider that gives no email lives (`…@fakeemail.invalid`).
 */
export function isUndeliverableEmail(canonical: string): boolean {
  return canonical.endsWith(".invalid");
}
