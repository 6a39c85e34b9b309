import { beforeEach, describe, expect, it } from "vitest";
import { backends } from "../helpers/backends.js";
import { PW, useCliDatabase } from "./fixture.js";

describe.each(backends)("authsvc orgs on $name", (backend) => {
  const t = useCliDatabase(backend);
  beforeEach(async () => {
    await t.create();
    for (const email of ["ada@example.com", "bob@example.com"]) await t.cli(["create-user", "--email", email, "--password-stdin"], { stdin: PW });
  });

  it("creates, staffs, invites, re-roles and deletes; the last owner holds", async () => {
    expect(await t.cli(["orgs", "list"])).toMatchObject({ code: 0, stdout: "no organizations\n" });
    const created = await t.cli(["orgs", "create", "Acme Labs", "--owner", "ada@example.com"]);
    expect(created).toMatchObject({ code: 0, stdout: expect.stringMatching(/^created acme-labs \(.+\), owned by ada@example.com\n$/) });
    expect(await t.cli(["orgs", "add-member", "acme-labs", "bob@example.com", "--role", "admin"])).toMatchObject({ code: 0, stdout: "bob@example.com is admin of acme-labs\n" });
    expect(await t.cli(["orgs", "add-member", "acme-labs", "bob@example.com"])).toMatchObject({ code: 1, stderr: expect.stringMatching(/Already a member/) });
    // Ada is the only owner of an organization with another member: her deletion is refused, naming it.
    expect(await t.cli(["users", "delete", "ada@example.com", "--yes"])).toMatchObject({ code: 1, stderr: expect.stringMatching(/only owner of the organization Acme Labs \(acme-labs\)/) });
    expect(await t.cli(["orgs", "set-role", "acme-labs", "ada@example.com", "member"])).toMatchObject({ code: 1, stderr: expect.stringMatching(/always keeps one owner/) });
    expect((await t.cli(["orgs", "set-role", "acme-labs", "bob@example.com", "ghost"])).code).toBe(2);
    expect(await t.cli(["orgs", "invite", "acme-labs", "cy@example.com"])).toMatchObject({ code: 0, stdout: expect.stringMatching(/^invited cy@example.com as member to acme-labs/) });
    const shown = JSON.parse((await t.cli(["orgs", "show", "acme-labs", "--json"])).stdout);
    expect(shown.members.map((m: { email: string; role: string }) => `${m.email}:${m.role}`)).toEqual(["ada@example.com:owner", "bob@example.com:admin"]);
    expect(shown.invitations.map((i: { email: string }) => i.email)).toEqual(["cy@example.com"]);
    expect(await t.cli(["orgs", "revoke-invitation", "acme-labs", shown.invitations[0].id])).toMatchObject({ code: 0 });
    // The operator vouches for a domain; a second organization cannot have it; the owner role is refused.
    expect(await t.cli(["orgs", "add-domain", "acme-labs", "Acme.Example", "--role", "admin"])).toMatchObject({ code: 0, stdout: "people with a verified address at acme.example may join acme-labs as admin\n" });
    expect((await t.cli(["orgs", "add-domain", "acme-labs", "not a domain"])).code).toBe(2);
    expect((await t.cli(["orgs", "add-domain", "acme-labs", "owners.example", "--role", "owner"])).code).toBe(2);
    await t.cli(["orgs", "create", "Rival", "--owner", "bob@example.com"]);
    expect(await t.cli(["orgs", "add-domain", "rival", "acme.example"])).toMatchObject({ code: 1, stderr: expect.stringMatching(/belongs to another organization/) });
    expect(JSON.parse((await t.cli(["orgs", "show", "acme-labs", "--json"])).stdout).domains).toMatchObject([{ domain: "acme.example", role: "admin", verifiedBy: "cli" }]);
    expect(await t.cli(["orgs", "remove-domain", "acme-labs", "acme.example"])).toMatchObject({ code: 0, stdout: "no one joins acme-labs through acme.example any more\n" });
    expect(await t.cli(["orgs", "remove-domain", "acme-labs", "acme.example"])).toMatchObject({ code: 1 });
    expect(await t.cli(["orgs", "rename", "acme-labs", "Acme", "--slug", "acme"])).toMatchObject({ code: 0, stdout: "renamed to Acme (acme)\n" });
    expect(await t.cli(["orgs", "remove-member", "acme", "bob@example.com"])).toMatchObject({ code: 0, stdout: "removed bob@example.com from acme\n" });
    expect(await t.cli(["orgs", "delete", "acme"])).toMatchObject({ code: 2, stderr: expect.stringMatching(/add --yes/) });
    expect(await t.cli(["orgs", "delete", "acme", "--yes"])).toMatchObject({ code: 0, stdout: "deleted acme\n" });
    expect(await t.cli(["orgs", "show", "acme"])).toMatchObject({ code: 1, stderr: expect.stringMatching(/no organization acme/) });
  });
});
