/**
 * Replaces the password of a URL (smtp://user:pass@host, postgres://user:pass@host/db) with ****.
 * Greedy up to the last "@" before the path: URL parsers take the last "@" of the authority as the
 * separator, so an unencoded "@" inside a password must not leave its tail visible.
 */
export function maskUrlPassword(url: string): string {
  return url.replace(/^([a-z][a-z0-9+.-]*:\/\/[^:/@?#]*:)[^/?#]*@/i, "$1****@");
}
