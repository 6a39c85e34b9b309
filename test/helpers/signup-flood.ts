/**
 * Eight clients sign up as fast as they can (one IP: run the server with rate limits off) until
 * `count` sign-ups were acknowledged; then `kill` runs (once) and the clients stop. Resolves with
 * the addresses whose sign-up the server answered OK: each must be in the database afterwards.
 */
export async function signUpUntilKilled(port: number, count: number, kill: () => void): Promise<string[]> {
  const acked: string[] = [];
  let n = 0;
  let killed = false;
  await Promise.all(Array.from({ length: 8 }, async () => {
    while (!killed) {
      const email = `k${n++}@example.com`;
      const body = JSON.stringify({ formFields: [{ id: "email", value: email }, { id: "password", value: "correct horse battery staple" }] });
      const r = await fetch(`http://127.0.0.1:${port}/auth/signup`, { method: "POST", headers: { "content-type": "application/json" }, body }).catch(() => undefined);
      if (r?.status === 200 && ((await r.json()) as { status: string }).status === "OK") acked.push(email);
      if (acked.length >= count && !killed) { killed = true; kill(); }
    }
  }));
  return acked;
}
