// The bot check's load: solutions a client brings to a guarded request, solved before the timed
// batch (the work is the browser's; the bench measures what the server does with it). Each comes
// from the server's own GET /auth/captcha/challenge and is solved as the ALTCHA widget does.
import { solveChallenge } from "altcha-lib";
import { deriveKey } from "altcha-lib/algorithms/sha";

/** `n` fresh solutions (the authsvc-captcha header's values) from the server behind `call`. */
export async function solveChallenges(call, n) {
  const out = [];
  for (let i = 0; i < n; i++) {
    const r = await call("GET", "/auth/captcha/challenge");
    if (r.status !== 200) throw new Error(`challenge: ${r.status} ${r.text}`);
    const challenge = JSON.parse(r.text);
    const solution = await solveChallenge({ challenge, deriveKey });
    out.push(Buffer.from(JSON.stringify({ challenge, solution })).toString("base64"));
  }
  return out;
}
