// The sales demo guide's pictures (docs/demo.md, docs/screenshots/*.png), compared with the screen:
// go-live scenario 2 and the back office walked in the presenter's window (1440 px, where the
// integration inspector opens by itself), each screen the guide shows compared with its committed
// image. A change to what the guide shows fails here until the pictures are retaken:
//   npm run screenshots:update
// Its own run (playwright.screenshots.config.ts, a step of npm test), not the storefront suite's.
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import type { Page } from "@playwright/test";
import { adminLogin, CARDS, fillCard } from "./fixtures";
import { expect, test } from "./support/fixtures";

/** The guide's pictures: the expectations of this run (playwright.screenshots.config.ts). */
const SCREENSHOTS = path.resolve("docs/screenshots");
/** The pictures this run compared. */
const compared = new Set<string>();

/**
 * What differs from one run to the next, whatever the shop shows, written as the guide writes it
 * ("`…` stands for an id or a time"): times, durations, dates, the shop's order numbers, cart ids
 * and card payment ids, the service's ids and session hashes.
 */
const MOVING: RegExp[] = [
  // 09:31:02.117, the inspector's lines
  /\b\d{2}:\d{2}:\d{2}\.\d{3}\b/g,
  // 516 ms
  /\b\d+ ms\b/g,
  // Nov 28, 2026, 9:18 AM (the service's "Valid until") and 26 Nov 2026, 09:18 (the shop's)
  /\b[A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2}\s?[AP]M\b/g,
  /\b\d{1,2} [A-Z][a-z]{2} \d{4}, \d{2}:\d{2}\b/g,
  // SO-20261126-D43185
  /\bSO-\d{8}-[A-Z0-9]+\b/g,
  // the cart id, a cuid
  /\bc[a-z0-9]{24}\b/g,
  // the test gateway's payment id
  /\btest_\d{4}_\d+_[a-z0-9]+\b/g,
  // the service's ids (ti_pxuazd_000001, ord_…, wh_…) and a session hash in a path
  /\b(?:ti|ord|wh)_[A-Za-z0-9_]+/g,
  /(?<=\/sessions\/)[0-9a-f]+…?/g,
];

/**
 * The screen compared with the guide's picture `name` (docs/screenshots/): the moving parts
 * (MOVING) are written "…" in the page's text, its open shadow roots too, and kept so while the
 * page re-renders; everything else, amounts and labels first, is compared as shown. Afterwards
 * the page's text is given back, for the journey's next steps.
 */
async function expectGuideScreen(
  page: Page,
  name: string,
  options: { fullPage?: boolean } = {},
): Promise<void> {
  await page.evaluate(
    (patterns) => {
      const moving = patterns.map((p) => new RegExp(p, "g"));
      const originals = new Map<Node, string>();
      const freeze = (root: Node) => {
        const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
        for (let text = walker.nextNode(); text; text = walker.nextNode()) {
          const before = text.nodeValue ?? "";
          const after = moving.reduce((value, pattern) => value.replace(pattern, "…"), before);
          if (after === before) continue;
          originals.set(text, before);
          text.nodeValue = after;
        }
      };
      const roots: Node[] = [document.body];
      for (const element of document.body.querySelectorAll("*")) {
        if (element.shadowRoot) roots.push(element.shadowRoot);
      }
      const observers = roots.map((root) => {
        freeze(root);
        const observer = new MutationObserver(() => freeze(root));
        observer.observe(root, { subtree: true, childList: true, characterData: true });
        return observer;
      });
      (window as unknown as { thawGuideScreen: () => void }).thawGuideScreen = () => {
        for (const observer of observers) observer.disconnect();
        for (const [text, original] of originals) text.nodeValue = original;
      };
    },
    MOVING.map((pattern) => pattern.source),
  );
  // Soft: the journey goes on, so one run names every picture that no longer matches.
  await expect.soft(page).toHaveScreenshot(name, options);
  compared.add(name);
  await page.evaluate(() =>
    (window as unknown as { thawGuideScreen: () => void }).thawGuideScreen(),
  );
}

/** The inspector has listed its last line for this screen (it polls the shop every 2 s). */
async function inspectorShows(page: Page, ...lines: string[]): Promise<void> {
  const inspector = page.getByTestId("integration-inspector");
  await expect(inspector).toBeVisible();
  for (const line of lines) await expect(inspector).toContainText(line);
}

test("the demo guide's pictures are the screens the shop shows @emulator", async ({
  page,
  sdk,
  shop,
  // The emulator starts from its seed (the fixture resets it).
  emulator: _reset,
}) => {
  test.setTimeout(90_000);
  // Signed in from the first page: the inspector drops the lines of the tab's earlier shopper
  // once it has learnt who that was, which a login page may or may not have done before the form
  // leaves it. And every page is left only once its SDK is ready, as a presenter waits for it: the
  // inspector lists each page's service-ready and shopper_data, so each picture lists the same
  // lines every run.
  await shop.startSignedIn();
  await page.goto("/");
  await sdk.ready();
  await sdk.openWizardFromTeaser("banner");
  await sdk.valueDevice("Phones", "Aurora 15");
  await inspectorShows(page, "service-new-user-valuation-started");
  await expectGuideScreen(page, "1-valuation-offer.png");

  await sdk.acceptOffer();
  await sdk.expectOfferShown("banner");
  await inspectorShows(page, "service-valuation-updated", "service-modal-closed");
  await expectGuideScreen(page, "2-offer-and-inspector.png");

  await page.goto("/products/aurora-x1");
  await sdk.ready();
  await page.getByRole("button", { name: "Add to cart" }).click();
  await expect(page.getByRole("status")).toContainText("Added to your cart.");
  await shop.openCheckout();
  await sdk.ready();
  await shop.expectServicePayMode("tradein_valid");
  await inspectorShows(page, "GET purchase_data");
  await expectGuideScreen(page, "3-checkout-payment-options.png", { fullPage: true });

  await shop.cardRadio().check();
  await fillCard(page, CARDS.success);
  await shop.placeOrder();
  await expect(page.getByTestId("trade-in-outcome")).toHaveAttribute("data-outcome", "registered");
  await sdk.ready();
  await inspectorShows(page, "POST /register-purchase 200", "register-purchase: registered");
  const number = (await page.getByTestId("order-number").textContent()) ?? "";
  // The confirmation from its top, as the shopper lands on it.
  await page.evaluate(() => window.scrollTo(0, 0));
  await expectGuideScreen(page, "4-card-order-trade-in-registered.png");

  await adminLogin(page);
  await page.getByRole("button", { name: "Reconcile with the service" }).click();
  await expect(page.getByTestId("reconcile-report")).toContainText("Listed");
  await expectGuideScreen(page, "5-admin-reconcile.png");

  await page.getByRole("link", { name: number }).click();
  await page.getByRole("button", { name: "Mark shipped" }).click();
  await expect(page.getByTestId("admin-order-status")).toHaveText("Shipped");
  await expectGuideScreen(page, "6-admin-order-update.png", { fullPage: true });
  expect([...compared].sort()).toEqual(readdirSync(SCREENSHOTS).sort());
});

test("every picture the docs show is one of the guide's screens compared here", () => {
  // Every Markdown file of the checkout (git's view: no node_modules, no build output).
  const docs = execFileSync("git", ["ls-files", "--cached", "--others", "--exclude-standard"], {
    encoding: "utf8",
  })
    .split("\n")
    .filter((file) => file.endsWith(".md"));
  const shown = docs.flatMap((doc) =>
    [...readFileSync(doc, "utf8").matchAll(/!\[[^\]]*\]\(([^)\s]+)\)|<img[^>]*\ssrc="([^"]+)"/g)]
      .map((m) => m[1] ?? m[2] ?? "")
      .filter((src) => !/^https?:/.test(src))
      .map((src) => path.relative(SCREENSHOTS, path.resolve(path.dirname(doc), src))),
  );
  expect(shown.length).toBeGreaterThan(0);
  // A picture outside docs/screenshots/ would be one no test compares.
  expect(new Set(shown)).toEqual(new Set(readdirSync(SCREENSHOTS)));
});
