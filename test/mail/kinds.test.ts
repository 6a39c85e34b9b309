import { describe, expect, it } from "vitest";
import { assembleMail, type MailBlock } from "../../src/mail/kinds.js";
import { mail } from "../../src/rooms.js";

const block = (position: number | undefined, ...actions: string[]): MailBlock => ({ position, actions: actions.map((action) => ({ action, label: action })), kinds: [] });

describe("the mail table's order of actions", () => {
  it("lists the blocks by position, equal positions in the order given, blocks without one last, then other", () => {
    const t = assembleMail([block(undefined, "z"), block(100, "n1", "n2"), block(0, "a"), block(50, "m"), block(50, "m2")]);
    expect(t.actions.map((a) => a.action)).toEqual(["a", "m", "m2", "n1", "n2", "z", "other"]);
  });

  it("refuses an action two blocks declare", () => {
    expect(() => assembleMail([block(0, "a"), block(10, "a")])).toThrow(/mail action a is declared twice/);
  });

  it("keeps the order tail-mail --action and the development inbox have always listed", () => {
    expect(mail.actions.map((a) => a.action)).toEqual([
      "verify-email", "reset-password", "password-changed", "third-party-account", "passwordless", "mfa-recovery-code-used", "mfa-reset",
      "recover-passkey", "change-email", "email-changed", "account-deletion", "login-added", "account-secured", "organization-invitation", "new-sign-in", "account-banned", "other",
    ]);
  });
});
