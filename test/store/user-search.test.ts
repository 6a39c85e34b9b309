import { sql, type Kysely } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { searchPeople } from "../../src/core/user-search.js";
import type { DB } from "../../src/store/schema.js";
import { explainEmailPrefixSearch, searchPeopleByEmailPrefix } from "../../src/store/user-search.js";
import { backends } from "../helpers/backends.js";
import { createTestApp, type TestApp } from "../helpers/test-app.js";

/** Bulk people (ids p00000…), addresses spread over prefixes, plus a linked member that must not be listed. */
async function seed(db: Kysely<DB>, postgres: boolean, n: number): Promise<void> {
  const t0 = 1_700_000_000_000;
  if (postgres) {
    await sql`insert into users (id, email, time_joined, updated_at, primary_user_id)
      select 'p' || lpad(g::text, 5, '0'), chr(97 + g % 26) || g || '@example.com', ${t0}::bigint + g, ${t0}::bigint + g, null from generate_series(0, ${n - 1}) g`.execute(db);
    await sql`analyze users`.execute(db);
  } else {
    await sql`with recursive g(i) as (select 0 union all select i + 1 from g where i < ${n - 1})
      insert into users (id, email, time_joined, updated_at, primary_user_id)
      select 'p' || substr('00000' || i, -5), char(97 + i % 26) || i || '@example.com', ${t0} + i, ${t0} + i, null from g`.execute(db);
    await sql`analyze`.execute(db);
  }
  await db.insertInto("users").values({ id: "member-of-p00000", email: "aaa-member@example.com", time_joined: t0, updated_at: t0, primary_user_id: "p00000" }).execute();
}

describe.each(backends)("user search by email prefix and id ($name)", (backend) => {
  let t: TestApp;
  let db: Kysely<DB>;
  beforeAll(async () => {
    t = await createTestApp({ backend, listen: false });
    db = t.app.ctx.store.db;
    await seed(db, backend.name === "postgres", 20_000);
  });
  afterAll(async () => t.close());

  it("is served by the people-email index, never a scan of the users table (first page and a later one)", async () => {
    for (const after of [undefined, { email: "b1001@example.com", id: "p01001" }]) {
      const plan = await explainEmailPrefixSearch(db, "b1", after);
      expect(plan).toContain("users_person_email_idx");
      if (backend.name === "postgres") {
        expect(plan).not.toMatch(/Seq Scan|Sort/);
      } else {
        expect(plan).not.toMatch(/SCAN users(?! USING)|TEMP B-TREE/);
        expect(plan).toMatch(/SEARCH users USING INDEX users_person_email_idx \(email>\? AND email<\?\)/);
      }
    }
  });

  it("finds people whose email starts with the prefix, case-insensitively, in (email, id) order, and walks pages both ways without gaps or repeats", async () => {
    const all = await searchPeopleByEmailPrefix(db, { prefix: "c1", limit: 10_000 });
    expect(all.length).toBeGreaterThan(100);
    expect(all.every((r) => r.email.startsWith("c1"))).toBe(true);
    const sorted = [...all].sort((a, b) => (a.email < b.email ? -1 : a.email > b.email ? 1 : a.id < b.id ? -1 : 1));
    expect(all.map((r) => r.id)).toEqual(sorted.map((r) => r.id));

    const seen: string[] = [];
    const pages: Array<{ ids: string[]; previous: string | null }> = [];
    let after: string | undefined;
    for (;;) {
      const p = await searchPeople(t.app.ctx, { query: " C1 ", after, limit: 40 });
      expect(p.matchedBy).toBe("email-prefix");
      pages.push({ ids: p.users.map((u) => u.id), previous: p.previous });
      seen.push(...p.users.map((u) => u.id));
      if (!p.next) break;
      after = p.next;
    }
    expect(seen).toEqual(all.map((r) => r.id));
    expect(pages[0].previous).toBeNull();
    // Back from the last page: the page before it, exactly.
    const last = pages[pages.length - 1];
    const back = await searchPeople(t.app.ctx, { query: "c1", before: last.previous!, limit: 40 });
    expect(back.users.map((u) => u.id)).toEqual(pages[pages.length - 2].ids);
    // Back from the second page: the first page, with no page before it.
    const second = await searchPeople(t.app.ctx, { query: "c1", after: (await searchPeople(t.app.ctx, { query: "c1", limit: 40 })).next!, limit: 40 });
    const first = await searchPeople(t.app.ctx, { query: "c1", before: second.previous!, limit: 40 });
    expect(first.users.map((u) => u.id)).toEqual(pages[0].ids);
    expect(first.previous).toBeNull();
  });

  it("lists people only: a linked login method is found through its person, by email prefix and by its own id", async () => {
    const byPrefix = await searchPeople(t.app.ctx, { query: "aaa-member" });
    expect(byPrefix.users).toEqual([]);
    const byId = await searchPeople(t.app.ctx, { query: "member-of-p00000" });
    expect(byId.matchedBy).toBe("id");
    expect(byId.users.map((u) => u.id)).toEqual(["p00000"]);
    const own = await searchPeople(t.app.ctx, { query: "p00007" });
    expect(own.users.map((u) => u.email)).toEqual(["h7@example.com"]);
  });

  it("matches LIKE wildcards and odd characters literally, and refuses a forged cursor", async () => {
    expect((await searchPeople(t.app.ctx, { query: "%" })).users).toEqual([]);
    expect((await searchPeople(t.app.ctx, { query: "_1" })).users).toEqual([]);
    expect((await searchPeople(t.app.ctx, { query: "\u{10ffff}" })).users).toEqual([]);
    await expect(searchPeople(t.app.ctx, { query: "a", after: "not-a-cursor" })).rejects.toThrow(/not valid/);
  });
});
