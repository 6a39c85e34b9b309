import { beforeEach, describe, expect, it } from "vitest";
import { backends } from "../helpers/backends.js";
import { PW, useCliDatabase } from "./fixture.js";

describe.each(backends)("authsvc roles and users roles/metadata on $name", (backend) => {
  const t = useCliDatabase(backend);
  let adaId = "";
  beforeEach(async () => {
    await t.create();
    adaId = JSON.parse((await t.cli(["create-user", "--email", "ada@example.com", "--password-stdin", "--json"], { stdin: PW })).stdout).id;
  });

  it("creates roles, gives and takes them, and lists who has them", async () => {
    expect(await t.cli(["roles", "list"])).toMatchObject({ code: 0, stdout: "no roles\n" });
    expect(await t.cli(["roles", "create", "editor", "posts:read", "posts:write"])).toMatchObject({ code: 0, stdout: "created editor: posts:read, posts:write\n" });
    expect(await t.cli(["roles", "add-permissions", "editor", "posts:publish"])).toMatchObject({ code: 0, stdout: "updated editor: posts:publish, posts:read, posts:write\n" });
    expect(await t.cli(["roles", "remove-permissions", "editor", "posts:write"])).toMatchObject({ code: 0, stdout: "editor: posts:publish, posts:read\n" });
    expect(await t.cli(["users", "roles", "ada@example.com", "--add", "editor"])).toMatchObject({ code: 0, stdout: "roles:       editor\npermissions: posts:publish, posts:read\n" });
    expect(JSON.parse((await t.cli(["roles", "users", "editor", "--json"])).stdout)).toEqual({ role: "editor", users: [adaId] });
    const missing = await t.cli(["users", "roles", adaId, "--add", "ghost"]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/no role ghost; create it with: authsvc roles create ghost/);
    expect((await t.cli(["roles", "create", "bad name"])).code).toBe(2);
    expect(JSON.parse((await t.cli(["users", "roles", adaId, "--remove", "editor", "--json"])).stdout)).toEqual({ userId: adaId, roles: [], permissions: [] });
    expect(await t.cli(["roles", "delete", "editor"])).toMatchObject({ code: 0, stdout: "deleted role editor\n" });
    expect((await t.cli(["roles", "delete", "editor"])).code).toBe(1);
  });

  it("a mistyped role names the existing role it most likely meant, and changes nothing", async () => {
    await t.cli(["roles", "create", "editor", "posts:read"]);
    const typo = await t.cli(["users", "roles", "ada@example.com", "--add", "edtior"]);
    expect(typo).toMatchObject({ code: 1, stdout: "" });
    expect(typo.stderr).toMatch(/no role edtior; did you mean editor\?/);
    expect(JSON.parse((await t.cli(["users", "roles", adaId, "--json"])).stdout).roles).toEqual([]);
    for (const args of [["roles", "users", "editr"], ["roles", "delete", "Editor"], ["roles", "remove-permissions", "edito", "posts:read"]]) {
      const r = await t.cli(args);
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/; did you mean editor\?/);
    }
    expect(await t.cli(["roles", "list"])).toMatchObject({ code: 0, stdout: "editor: posts:read\n" });
  });

  it("shows, merges and clears a user's metadata; refuses what is not an object", async () => {
    expect(JSON.parse((await t.cli(["users", "metadata", "ada@example.com"])).stdout)).toEqual({});
    expect(JSON.parse((await t.cli(["users", "metadata", "ada@example.com", "--set", "{\"plan\":\"pro\",\"seats\":3}"])).stdout)).toEqual({ plan: "pro", seats: 3 });
    expect(JSON.parse((await t.cli(["users", "metadata", adaId, "--set", "{\"seats\":null}", "--json"])).stdout)).toEqual({ userId: adaId, metadata: { plan: "pro" } });
    expect((await t.cli(["users", "metadata", adaId, "--set", "not json"])).code).toBe(2);
    expect((await t.cli(["users", "metadata", adaId, "--set", "[1]"])).code).toBe(2);
    const big = await t.cli(["users", "metadata", adaId, "--set", JSON.stringify({ x: "y".repeat(5000) })]);
    expect(big.code).toBe(1);
    expect(big.stderr).toMatch(/limit is 4096/);
    expect(JSON.parse((await t.cli(["users", "metadata", adaId, "--clear"])).stdout)).toEqual({});
  });
});
