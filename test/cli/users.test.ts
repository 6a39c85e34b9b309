import { beforeEach, describe, expect, it } from "vitest";
import { backends } from "../helpers/backends.js";
import { PW, useCliDatabase } from "./fixture.js";

const NO_SECRET = /hash|bcrypt|\$2[aby]\$|"password/i;

describe.each(backends)("authsvc users on $name", (backend) => {
  const t = useCliDatabase(backend);
  let adaId = "";
  beforeEach(async () => {
    await t.create();
    const r = await t.cli(["create-user", "--email", "ada@example.com", "--password-stdin", "--json"], { stdin: PW });
    adaId = JSON.parse(r.stdout).id;
    await t.cli(["create-user", "--email", "bob@example.com", "--password-stdin", "--verified"], { stdin: PW });
  });

  it("list shows every user, oldest first; --json carries no hash", async () => {
    const text = await t.cli(["users", "list"]);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(new RegExp(`^${adaId}  ada@example\\.com  unverified  emailpassword  joined \\S+\\n[0-9a-f-]{36}  bob@example\\.com  verified  emailpassword`));
    const json = await t.cli(["users", "list", "--json"]);
    expect(json.code).toBe(0);
    const list = JSON.parse(json.stdout);
    expect(list.map((u: { email: string }) => u.email)).toEqual(["ada@example.com", "bob@example.com"]);
    expect(list[0]).toMatchObject({ id: adaId, emails: ["ada@example.com"], tenantIds: ["public"], loginMethods: [{ recipeId: "emailpassword", verified: false }] });
    expect(json.stdout).not.toMatch(NO_SECRET);
  });

  it("list pages with --limit/--offset and rejects bad numbers with exit 2", async () => {
    const page = JSON.parse((await t.cli(["users", "list", "--json", "--limit", "1", "--offset", "1"])).stdout);
    expect(page.map((u: { email: string }) => u.email)).toEqual(["bob@example.com"]);
    expect((await t.cli(["users", "list", "--limit", "0"])).code).toBe(2);
    expect((await t.cli(["users", "list", "--offset", "-1"])).code).toBe(2);
    // A usage error touches nothing: on a fresh database it applies no migration.
    await t.create({ empty: true });
    expect(await t.cli(["users", "list", "--limit", "ten"])).toEqual({ code: 2, stdout: "", stderr: "authsvc: --limit and --offset take whole numbers\n" });
  });

  it("list on an empty database says so", async () => {
    await t.create();
    const r = await t.cli(["users", "list"]);
    expect(r).toMatchObject({ code: 0, stdout: "no users\n" });
    expect(JSON.parse((await t.cli(["users", "list", "--json"])).stdout)).toEqual([]);
  });

  it.each(["email", "id"])("show finds a user by %s", async (by) => {
    const ref = by === "email" ? "ADA@Example.com" : adaId;
    const text = await t.cli(["users", "show", ref]);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain(`id:        ${adaId}`);
    expect(text.stdout).toContain("email:     ada@example.com");
    const json = await t.cli(["users", "show", ref, "--json"]);
    expect(JSON.parse(json.stdout)).toMatchObject({ id: adaId, email: "ada@example.com" });
    expect(json.stdout).not.toMatch(NO_SECRET);
  });

  it.each(["show", "delete", "verify"])("%s of an unknown user fails with exit 1", async (sub) => {
    for (const ref of ["nobody@example.com", "00000000-0000-0000-0000-000000000000"]) {
      const r = await t.cli(["users", sub, ref, ...(sub === "delete" ? ["--yes"] : [])]);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(`no user ${ref}`);
    }
  });

  it.each(["email", "id"])("verify marks the address verified by %s, and says when it already was", async (by) => {
    const ref = by === "email" ? "ada@example.com" : adaId;
    expect(await t.cli(["users", "verify", ref])).toMatchObject({ code: 0, stdout: "verified ada@example.com\n" });
    expect(await t.cli(["users", "verify", ref])).toMatchObject({ code: 0, stdout: "ada@example.com was already verified\n" });
    expect(JSON.parse((await t.cli(["users", "verify", ref, "--json"])).stdout)).toEqual({ id: adaId, email: "ada@example.com", verified: true, changed: false });
    expect(JSON.parse((await t.cli(["users", "show", adaId, "--json"])).stdout).loginMethods[0].verified).toBe(true);
  });

  it.each(["email", "id"])("delete removes the user and their credential by %s", async (by) => {
    const ref = by === "email" ? "ada@example.com" : adaId;
    const r = await t.cli(["users", "delete", ref, "--yes", "--json"]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ deleted: adaId });
    expect((await t.cli(["users", "show", adaId])).code).toBe(1);
    expect(await t.store().db.selectFrom("email_password_credentials").select("email").execute()).toEqual([{ email: "bob@example.com" }]);
    // The address is free again.
    expect((await t.cli(["create-user", "--email", "ada@example.com", "--password-stdin"], { stdin: PW })).code).toBe(0);
  });

  it("`users` without a subcommand is a usage error (exit 2)", async () => {
    const r = await t.cli(["users", "frobnicate"]);
    expect(r.code).toBe(2);
  });
});
