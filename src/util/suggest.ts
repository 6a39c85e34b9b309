import { distance } from "fastest-levenshtein";

/**
 * The known name closest to a mistyped one, for "did you mean …?": case is ignored (the file
 * says "publicURL" for "publicUrl"), and a guess is only offered when it is near enough to be the
 * intended word (at most a third of its letters differ), never a random setting.
 */
export function suggestName(typed: string, known: readonly string[]): string | undefined {
  const t = typed.toLowerCase();
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const k of known) {
    const d = distance(t, k.toLowerCase());
    if (d < bestDistance) { best = k; bestDistance = d; }
  }
  return best !== undefined && bestDistance <= Math.max(1, Math.floor(typed.length / 3)) ? best : undefined;
}
