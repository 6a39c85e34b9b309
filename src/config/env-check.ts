import { suggestName } from "../util/suggest.js";

/**
 * A mistyped AUTHSVC_* variable, with the setting it most likely meant ("AUTHSVC_PUBILC_URL": did
 * you mean AUTHSVC_PUBLIC_URL?). Without this a typo silently leaves the setting at its default.
 * Only a near miss is refused: the environment is shared with other programs, so an AUTHSVC_*
 * name that is close to no setting (an app's own AUTHSVC_URL) is not ours to judge. Returns the
 * sentence to refuse with, or undefined.
 */
export function describeMistypedEnv(env: Readonly<Record<string, string | undefined>>, known: readonly string[]): string | undefined {
  const names = new Set(known);
  const suffixes = known.map((k) => k.slice("AUTHSVC_".length));
  for (const name of Object.keys(env)) {
    if (!name.startsWith("AUTHSVC_") || names.has(name) || env[name] === undefined) continue;
    const guess = suggestName(name.slice("AUTHSVC_".length), suffixes);
    if (guess !== undefined) return `unknown environment variable ${name}; did you mean AUTHSVC_${guess}?`;
  }
  return undefined;
}
