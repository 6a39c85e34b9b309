import { describe, expect, it } from "vitest";
import { kernelPageAssetsWith } from "../../../src/http/pages/assets.js";
import { linkRefusalKinds } from "../../../src/http/pages/sign-in-parts.js";

describe("the rooms' refusal kinds in refusal-words.js", () => {
  it("adds a room's codes to a shared kind, or its own kind with its sentence, one call each", () => {
    const js = kernelPageAssetsWith([], [{ kind: "taken", codes: ["007"] }, { kind: "own", codes: ["040"], words: "Say “this”." }])["refusal-words.js"];
    expect(js.endsWith(`addRefusalKind("taken", ["007"]);\naddRefusalKind("own", ["040"], "Say “this”.");\n`)).toBe(true);
  });

  it("gives a room's link-refusal codes to the shared kinds by their place in the triples, in the triples' order", () => {
    // The triples' order is describeLinkRefusals's: verification required, method linked elsewhere, address taken.
    expect(linkRefusalKinds(["009", "010", "011"], ["013", "014", "015"])).toEqual([
      { kind: "verifyFirst", codes: ["009", "013"] },
      { kind: "methodTaken", codes: ["010", "014"] },
      { kind: "addressTaken", codes: ["011", "015"] },
    ]);
  });

  it("refuses a code declared twice, a second sentence for a kind, and a kind without one", () => {
    expect(() => kernelPageAssetsWith([], [{ kind: "taken", codes: ["007"] }, { kind: "verifyFirst", codes: ["007"] }])).toThrow(/refusal code 007 is declared twice/);
    expect(() => kernelPageAssetsWith([], [{ kind: "own", codes: ["040"], words: "a" }, { kind: "own", codes: ["041"], words: "b" }])).toThrow(/refusal kind own is declared twice/);
    expect(() => kernelPageAssetsWith([], [{ kind: "taken", codes: ["040"], words: "another sentence" }])).toThrow(/refusal kind taken is declared twice/);
    expect(() => kernelPageAssetsWith([], [{ kind: "own", codes: ["040"] } as never])).toThrow(/refusal kind own has no sentence/);
  });
});
