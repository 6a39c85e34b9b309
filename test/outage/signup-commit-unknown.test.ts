import { sql } from "kysely";
import { afterEach, describe, expect, it } from "vitest";
import { postgresBackend } from "../helpers/backends.js";
import { credentials, postJson } from "../helpers/session-client.js";
import { createTestApp, type TestApp } from "../helpers/test-app.js";

/**
 * Issue 26: the connection dies while the sign-up's COMMIT is on its way, so the server cannot know
 * whether the account was saved. A deferred trigger on the test's own schema ends its own backend
 * at commit time (pg_terminate_backend of itself): a real PostgreSQL, a real lost COMMIT.
 */
describe.runIf(process.env.AUTHSVC_TEST_PG_URL)("a sign-up whose COMMIT loses the connection (PostgreSQL)", () => {
  let t: TestApp | undefined;
  afterEach(async () => { await t?.close(); t = undefined; });

  it("answers 503 with Retry-After saying the account may exist (not a 500), and the server carries on", async () => {
    t = await createTestApp({ backend: postgresBackend });
    await sql.raw(`
      create function die_at_commit() returns trigger language plpgsql as $$
      begin
        if new.email like 'lost-%' then perform pg_terminate_backend(pg_backend_pid()); perform pg_sleep(5); end if;
        return null;
      end $$;
      create constraint trigger die_at_commit after insert on users deferrable initially deferred
        for each row execute function die_at_commit();`).execute(t.app.store.db);

    const res = await postJson(`${t.url}/auth/signup`, credentials("lost-1@example.com"));
    expect(res.status).toBe(503);
    expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(((await res.json()) as { message: string }).message).toMatch(/may exist/);

    // The pool drops the dead connection: the next sign-up and sign-in work at once.
    const ok = await postJson(`${t.url}/auth/signup`, credentials("kept@example.com"));
    expect(await ok.json()).toMatchObject({ status: "OK" });
    expect(await (await postJson(`${t.url}/auth/signin`, credentials("kept@example.com"))).json()).toMatchObject({ status: "OK" });
  });
});
