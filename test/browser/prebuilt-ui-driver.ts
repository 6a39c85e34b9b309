import type { ElementHandle, Page } from "puppeteer-core";

/**
 * Drives the SuperTokens prebuilt UI as a person does: it renders in a shadow root
 * (#supertokens-root), so selectors go through puppeteer's `pierce/` and texts are read from there.
 * Shared by every test of the prebuilt UI (later recipes add screens, not new ways to find them).
 */

/** The visible text of the prebuilt UI (or of the app's own page when the UI is not shown). */
export function readUiText(page: Page): Promise<string> {
  return page.evaluate(() => {
    const root = document.querySelector("#supertokens-root")?.shadowRoot;
    return ((root ? Array.from(root.children).filter((e) => e.tagName !== "STYLE").map((e) => (e as HTMLElement).innerText ?? "").join("\n") : "") + "\n" + document.body.innerText).trim();
  });
}

/** Waits until the UI's text matches (a screen change, a message from the server). */
export async function waitForUiText(page: Page, re: RegExp, timeout = 15_000): Promise<void> {
  const deadline = Date.now() + timeout;
  let last = "";
  while (Date.now() < deadline) {
    last = await readUiText(page).catch(() => ""); // a navigation may be under way
    if (re.test(last)) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`the page never showed ${re}; it shows:\n${last}`);
}

/** Types into the prebuilt UI's input named `name` (cleared first). */
export async function fillUi(page: Page, name: string, text: string): Promise<void> {
  const input = await page.waitForSelector(`pierce/input[name="${name}"]`, { visible: true, timeout: 15_000 });
  await input!.click({ clickCount: 3 });
  await page.keyboard.press("Backspace");
  await input!.type(text);
}

/** Clicks the button or link of the UI whose text matches `re` (case-insensitive text, as shown). */
export async function clickUi(page: Page, re: RegExp): Promise<void> {
  const handle = await page.waitForFunction((src, flags) => {
    const root = document.querySelector("#supertokens-root")?.shadowRoot;
    const scopes: ParentNode[] = [document, ...(root ? [root] : [])];
    for (const scope of scopes) {
      for (const el of Array.from(scope.querySelectorAll("button, a, [data-supertokens~=link]"))) {
        if (new RegExp(src, flags).test((el.textContent ?? "").trim())) return el;
      }
    }
    return null;
  }, { timeout: 15_000 }, re.source, re.flags.includes("i") ? re.flags : re.flags + "i");
  await (handle as ElementHandle<Element>).click();
}
