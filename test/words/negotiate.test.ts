import { describe, expect, it } from "vitest";
import { localeFromAcceptLanguage } from "../../src/words/negotiate.js";
import { shippedLocales, type Locale } from "../../src/words/locales.js";

describe("Accept-Language", () => {
  const pick = (h: string | undefined, offered: readonly Locale[] = shippedLocales) => localeFromAcceptLanguage(h, offered, "en");
  it("takes the best offered locale a browser asks for, by q-value and region", () => {
    expect(pick("de-AT,de;q=0.9,en;q=0.8")).toBe("de");
    expect(pick("en;q=0.5, de")).toBe("de");
    expect(pick("pt")).toBe("pt-BR");
    expect(pick("ja-JP")).toBe("ja");
    expect(pick("ar-EG")).toBe("ar");
    expect(pick("zh-Hans-CN")).toBe("zh-CN");
    expect(pick("xx, fr;q=0.1")).toBe("fr");
  });
  it("falls back when nothing offered is asked for, the header is absent or malformed", () => {
    expect(pick(undefined)).toBe("en");
    expect(pick("*")).toBe("en");
    expect(pick("de", ["en", "fr"])).toBe("en");
    expect(pick(";;;,,q=")).toBe("en");
  });
});
