// The hostile cases, run against the built shop and the emulator (`npm run check:security` runs
// only these; `npm test` runs them with everything else). Each one is what an attacker or a
// careless operator would try: a copied cookie, guessed passwords, a crafted `next`, a framing
// page, a huge body, a foreign page driving the emulator's control API.
import { spawn } from "node:child_process";
import { createHmac, randomBytes, randomUUID, scryptSync } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import http from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Browser, BrowserContext, Locator, Page } from "@playwright/test";
import Database from "better-sqlite3";
import { TEST_ADDRESS } from "../test-support/checkout";
import { redirectBypasses } from "../test-support/redirect-bypasses";
import { ADMIN, adminLogin, cartCount, placeOrder, SHOPPER } from "./fixtures";
import { EMULATOR_URL, sessionHashOf } from "./support/emulator";
import { expect, test } from "./support/fixtures";
import { linkAfter, postPageForm } from "./support/no-js-form";
import { rawShopSession } from "./support/shop-session";
import { STACK } from "./support/stack";

const SHOP = STACK.shopUrl;

/** A second browser holding a copy of this context's cookies (what a thief would have). */
async function copyOf(browser: Browser, context: BrowserContext): Promise<Page> {
  const thief = await browser.newContext();
  await thief.addCookies(await context.cookies());
  return thief.newPage();
}

async function logIn(page: Page, account = SHOPPER) {
  await page.goto("/account/login");
  await page.getByLabel("Email").fill(account.email);
  await page.getByLabel("Password").fill(account.password);
  await page.getByRole("main").getByRole("button", { name: "Log in" }).click();
}

/** A second shopper in the built shop's database (the seed has one), with a real scrypt hash. */
function seedSecondShopper(): { email: string; password: string } {
  const account = { email: `bea-${randomUUID()}@example.com`, password: "bea-demo-password" };
  const salt = randomBytes(16);
  const key = scryptSync(account.password, salt, 64);
  const db = new Database(STACK.databaseFile);
  try {
    // Copied from the seeded shopper: the date as this database stores it.
    const { createdAt } = db.prepare(`SELECT createdAt FROM "Customer" LIMIT 1`).get() as {
      createdAt: unknown;
    };
    db.prepare(
      `INSERT INTO "Customer" (id, email, passwordHash, given_name, family_name, createdAt)
       VALUES (?, ?, ?, 'Bea', 'Beispiel', ?)`,
    ).run(
      `cust_${randomUUID()}`,
      account.email,
      `scrypt$${salt.toString("hex")}$${key.toString("hex")}`,
      createdAt,
    );
  } finally {
    db.close();
  }
  return account;
}

test.describe("sessions @security", () => {
  test("B signing in over A's signed-in session at one browser gets nothing of A's: cart, checkout, trade-in, session hash @emulator", async ({
    context,
    page,
    sdk,
    shop,
    emulator,
  }) => {
    const bea = seedSecondShopper();
    // A: signed in, a cart, a trade-in for A's session hash, a Service Pay checkout started.
    await page.goto("/");
    await shop.login();
    const a = await rawShopSession(context);
    const aHash = createHmac("sha256", a.salt).update(a.sessionId).digest("hex");
    await emulator.createTradeIn({ session_hash: aHash });
    await shop.addToCart("aurora-x1");
    const started = await page.request.post("/api/service/checkout", {
      data: { email: SHOPPER.email, billing: TEST_ADDRESS, shipping_method: "standard" },
    });
    expect(started.status()).toBe(200);
    // B at the same browser, without signing A out.
    await shop.login(bea);
    const b = await rawShopSession(context);
    expect(b.sessionId).not.toBe(a.sessionId);
    expect(b.salt).not.toBe(a.salt);
    expect(await sessionHashOf(page)).not.toBe(aHash);
    const purchase = await page.request.get("/api/service/purchase_data");
    expect(await purchase.json()).toEqual({ purchase: null });
    await page.goto("/cart");
    await expect(await cartCount(page)).toHaveText("0");
    await sdk.ready();
    expect(await sdk.hasActiveTradeIn()).toBe(false);
  });

  test("a cookie copied before login gets nothing of what the shopper does after it", async ({
    browser,
    context,
    page,
  }) => {
    await page.goto("/");
    const thief = await copyOf(browser, context);
    await logIn(page);
    await expect(page.getByRole("heading", { name: /^Hello, / })).toBeVisible();
    await page.goto("/products/aurora-x1");
    await page.getByRole("button", { name: "Add to cart" }).click();
    await expect(page.getByRole("status")).toContainText("Added to your cart.");

    await thief.goto("/account");
    await expect(thief.getByRole("heading", { level: 1, name: "Log in" })).toBeVisible();
    await thief.goto("/cart");
    await expect(await cartCount(thief)).toHaveText("0");
    // The shopper is still signed in with the cart.
    await page.goto("/account");
    await expect(page.getByRole("heading", { name: /^Hello, / })).toBeVisible();
    await expect(await cartCount(page)).toHaveText("1");
  });

  test("logging out ends the session on the server: an old copy of the cookie is anonymous", async ({
    browser,
    context,
    page,
  }) => {
    await logIn(page);
    await expect(page.getByRole("heading", { name: /^Hello, / })).toBeVisible();
    const thief = await copyOf(browser, context);
    await thief.goto("/account");
    await expect(thief.getByRole("heading", { name: /^Hello, / })).toBeVisible();
    await page.getByRole("button", { name: "Log out" }).click();
    await expect(page).toHaveURL(`${SHOP}/`);
    // On a stored catalog page too (the header asks the shop after the page is shown).
    await thief.goto("/products/aurora-x1");
    await expect(await cartCount(thief)).toHaveText("0");
    await expect(thief.getByRole("banner").getByRole("link", { name: "Log in" })).toBeVisible();
    await thief.goto("/account");
    await expect(thief.getByRole("heading", { level: 1, name: "Log in" })).toBeVisible();
  });

  test("admin sign-out ends the session on the server", async ({ browser, context, page }) => {
    await adminLogin(page);
    const thief = await copyOf(browser, context);
    await thief.goto("/admin");
    await expect(thief.getByRole("heading", { name: "Orders" })).toBeVisible();
    await page.getByRole("button", { name: "Sign out" }).click();
    await expect(page.getByRole("heading", { name: "Back office sign-in" })).toBeVisible();
    await thief.goto("/admin");
    await expect(thief.getByRole("heading", { name: "Back office sign-in" })).toBeVisible();
  });

  test("the trade-in valued before login is still there after it @emulator", async ({
    context,
    page,
    sdk,
    shop,
    emulator,
  }) => {
    // A valuation made before login, for this browser's session hash (this SDK build asks the
    // shopper to log in first, so the service side is set up directly; contract, Session hash).
    await page.goto("/");
    const { sessionId, salt } = await rawShopSession(context);
    const before = createHmac("sha256", salt).update(sessionId).digest("hex");
    await emulator.createTradeIn({ session_hash: before });
    await shop.addToCart("aurora-x1");
    await shop.login();
    // Same session hash after login, so the service still finds the trade-in.
    expect(await sessionHashOf(page)).toBe(before);
    await shop.openCheckout();
    await sdk.ready();
    await shop.expectServicePayMode("tradein_valid");
  });
});

/** Submits the form and waits for the server's answer, so each attempt is counted before the
 *  next (the previous attempt's message is still on screen until then). */
async function submitAndWait(page: Page, button: Locator) {
  const answered = page.waitForResponse(
    (r) => r.request().method() === "POST" && r.request().headers()["next-action"] !== undefined,
  );
  await button.click();
  await answered;
  // React resets the form once the action's answer is applied; fill the next guess after that.
  await expect(page.getByLabel("Password")).toHaveValue("");
}

test.describe("login throttling @security", () => {
  // Clean up after, so the suite's later admin logins are not slowed: the lock itself is what
  // is under test here, and it must not leak into the other journeys.
  test.afterAll(() => {
    const db = new Database(STACK.databaseFile);
    db.prepare("DELETE FROM LoginThrottle").run();
    db.close();
  });

  test("admin guesses are locked out, the right password too while locked", async ({ page }) => {
    await page.goto("/admin/login");
    const alert = page.locator('p[role="alert"]');
    for (let i = 1; i <= 5; i++) {
      await page.getByLabel("Email").fill(ADMIN.email);
      await page.getByLabel("Password").fill(`guess-${i}-wrong`);
      await submitAndWait(page, page.getByRole("button", { name: "Sign in" }));
      await expect(alert).toContainText(
        i < 5 ? "Wrong admin email or password." : "Too many failed sign-in attempts",
      );
    }
    await page.getByLabel("Email").fill(ADMIN.email);
    await page.getByLabel("Password").fill(ADMIN.password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(alert).toContainText(/Too many failed sign-in attempts.*try again in \d+ seconds/);
    await page.goto("/admin");
    await expect(page.getByRole("heading", { name: "Back office sign-in" })).toBeVisible();
  });

  test("shopper guesses are locked out per account", async ({ page }) => {
    await page.goto("/account/login");
    for (let i = 1; i <= 5; i++) {
      await page.getByLabel("Email").fill(SHOPPER.email);
      await page.getByLabel("Password").fill(`guess-${i}-wrong`);
      await submitAndWait(page, page.getByRole("main").getByRole("button", { name: "Log in" }));
      await expect(page.locator('p[role="alert"]')).toContainText(
        i < 5 ? "do not match an account" : "Too many failed sign-in attempts",
      );
    }
  });
});

test.describe("production settings @security", () => {
  /**
   * This build's `next start` as a host runs it (NODE_ENV=production; `.env` supplies the rest),
   * with TRUSTED_PROXY_HOPS as given ("" is unset: Next.js keeps a variable already present
   * rather than take `.env`'s). Resolves with its exit code and everything it printed when it
   * exits: by itself when it refuses, or stopped here once it has logged its start line.
   */
  function startShop(
    hops: string,
  ): Promise<{ code: number | null; stopped: boolean; output: string }> {
    const dir = mkdtempSync(path.join(tmpdir(), "shop-start-"));
    const child = spawn(process.execPath, ["node_modules/next/dist/bin/next", "start", "-p", "0"], {
      env: {
        ...process.env,
        NODE_ENV: "production",
        TRUSTED_PROXY_HOPS: hops,
        // Never migrated: the server is stopped as soon as it has said what it had to say.
        DATABASE_URL: `file:${path.join(dir, "never-used.db")}`,
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    let stopped = false;
    return new Promise((resolve, reject) => {
      const read = (chunk: Buffer) => {
        output += chunk.toString();
        if (!stopped && /TRUSTED_PROXY_HOPS=\d+: [^\n]*\n/.test(output)) {
          stopped = true;
          child.kill();
        }
      };
      child.stdout.on("data", read);
      child.stderr.on("data", read);
      child.on("error", reject);
      child.on("exit", (code) => {
        rmSync(dir, { recursive: true, force: true });
        resolve({ code, stopped, output });
      });
    });
  }

  test("without TRUSTED_PROXY_HOPS the server refuses to start, saying what 0 and N mean; 0 said out loud starts", async () => {
    const refused = await startShop("");
    expect(refused).toMatchObject({ code: 1, stopped: false });
    expect(refused.output).toContain(
      "Refusing to start: Invalid shop configuration (see .env.example):\n  TRUSTED_PROXY_HOPS: required with NODE_ENV=production, 0 included",
    );
    expect(refused.output).toContain("0: the shop is reached directly");
    expect(refused.output).toContain("N (1 to 10): N reverse proxies stand in front of the shop");
    const started = await startShop("0");
    expect(started.output).toContain(
      "TRUSTED_PROXY_HOPS=0: the shop is reached directly; a client that writes its own X-Forwarded-For chooses the address",
    );
    expect(started.output).not.toContain("Refusing to start");
    // Stopped here once it had said so, not exited by itself.
    expect(started.stopped).toBe(true);
  });
});

test.describe("redirects after login @security", () => {
  // Every known bypass, as a crafted post carries it: the login form posted without JavaScript
  // (the page it answers links on, where the browser with JavaScript goes by itself). The way
  // on is resolved as a browser resolves it (the WHATWG URL parser: tabs and newlines dropped,
  // backslashes as slashes).
  test("no crafted next leads off the shop after a login", async ({ request, baseURL }) => {
    // The forms that name the shop's own host name this stack's.
    for (const next of redirectBypasses(new URL(baseURL ?? "").host)) {
      const answer = await postPageForm(
        request,
        `/account/login?next=${encodeURIComponent(next)}`,
        'name="password"',
        { next, email: SHOPPER.email, password: SHOPPER.password },
      );
      expect(answer.status, JSON.stringify(next)).toBe(200);
      const wayOn = linkAfter(answer.html, "You are logged in.");
      expect(wayOn, `logged in with next=${JSON.stringify(next)}`).toBeDefined();
      const target = new URL(wayOn ?? "", SHOP);
      expect(target.origin, JSON.stringify(next)).toBe(SHOP);
      expect(target.pathname, JSON.stringify(next)).not.toBe("/account/login");
    }
  });

  // The same in the browser, with JavaScript: the page leaves by itself (FullPageRedirect).
  for (const next of [
    "//evil.example",
    "/\\evil.example",
    "/\t/evil.example",
    "javascript:alert(1)",
  ]) {
    test(`next=${JSON.stringify(next)} stays on the shop`, async ({ page }) => {
      await page.goto(`/account/login?next=${encodeURIComponent(next)}`);
      // Also the form value itself, as a crafted post would carry it.
      await page.locator('input[name="next"]').evaluate((input, value) => {
        (input as HTMLInputElement).value = value;
      }, next);
      await page.getByLabel("Email").fill(SHOPPER.email);
      await page.getByLabel("Password").fill(SHOPPER.password);
      await page.getByRole("main").getByRole("button", { name: "Log in" }).click();
      await expect(page).not.toHaveURL(/\/account\/login/);
      expect(new URL(page.url()).origin).toBe(SHOP);
    });
  }
});

test.describe("headers @security", () => {
  test("every page carries the security headers; private pages are never stored", async ({
    request,
  }) => {
    const sdkOrigin = new URL(STACK.assetsUrl ?? "").origin;
    // Catalog pages are stored pages under their own scripts' hashes (e2e/catalog-pages.e2e.ts;
    // a search from its second request); every other page has a nonce of its own, as has a
    // search with any parameter besides its one `q`.
    const inline = { nonce: "'nonce-[^']+'", hashes: "('sha256-[^']+' ?)+" };
    for (const [path, scripts] of <[string, string][]>[
      ["/", inline.hashes],
      ["/products/aurora-x1", inline.hashes],
      ["/search?q=aurora&sort=price", inline.nonce],
      ["/cart", inline.nonce],
      ["/account/login", inline.nonce],
      ["/admin/login", inline.nonce],
    ]) {
      const response = await request.get(path);
      const headers = response.headers();
      const csp = headers["content-security-policy"] ?? "";
      expect(csp, path).toContain("frame-ancestors 'none'");
      expect(csp, path).toMatch(new RegExp(`script-src 'self' ${scripts} ?${sdkOrigin}(;|$)`));
      expect(csp, path).toMatch(new RegExp(`connect-src 'self' ${sdkOrigin}(;|$)`));
      expect(csp, path).not.toContain("unsafe-eval");
      expect(csp, path).toContain("object-src 'none'");
      expect(headers["x-frame-options"], path).toBe("DENY");
      expect(headers["x-content-type-options"], path).toBe("nosniff");
      expect(headers["referrer-policy"], path).toBe("strict-origin-when-cross-origin");
    }
    for (const path of ["/account/login", "/checkout", "/checkout/confirmation", "/admin/login"]) {
      const response = await request.get(path, { maxRedirects: 0 });
      expect(response.headers()["cache-control"], path).toContain("no-store");
    }
  });

  test("the shop cannot be framed by another site", async ({ page }) => {
    // Another site frames the shop. Its page is answered by the test itself, so no other server
    // is needed (the suite also runs without the bundled emulator, against a staging service).
    const otherSite = "http://another-site.test/";
    await page.route(otherSite, (route) =>
      route.fulfill({
        contentType: "text/html",
        body: "<!doctype html><title>Another site</title>",
      }),
    );
    await page.goto(otherSite);
    await page.evaluate((src) => {
      const frame = document.createElement("iframe");
      frame.src = src;
      document.body.append(frame);
    }, `${SHOP}/`);
    const frame = await (await page.waitForSelector("iframe")).contentFrame();
    // The browser refuses to show the shop's answer there (its frame-ancestors, checked for
    // every page above): the frame ends on the browser's own error page, not the shop's.
    await expect.poll(() => frame?.url()).toMatch(/^chrome-error:/);
    if (frame)
      await expect(frame.getByRole("heading", { name: "Good tech, fairly priced" })).toHaveCount(0);
  });
});

test.describe("bodies and inputs @security", () => {
  test("a 200 MB body is refused with 413 by its declared length", async () => {
    const declared = 200 * 1024 * 1024;
    const { status, sent } = await new Promise<{ status: number; sent: number }>(
      (resolve, reject) => {
        let sent = 0;
        const chunk = Buffer.alloc(64 * 1024, 32);
        const req = http.request(`${SHOP}/api/service/checkout`, {
          method: "POST",
          headers: { "content-type": "application/json", "content-length": declared },
        });
        req.on("response", (res) => {
          res.resume();
          resolve({ status: res.statusCode ?? 0, sent });
          req.destroy();
        });
        req.on("error", (error) => (sent > 0 ? undefined : reject(error)));
        const pump = () => {
          while (sent < declared) {
            sent += chunk.length;
            if (!req.write(chunk)) return void req.once("drain", pump);
          }
          req.end();
        };
        pump();
      },
    );
    // Refused by its declared length. (Next.js drains the rest of the upload and drops it: at
    // most 128 KB of it is ever held, next.config.ts proxyClientMaxBodySize.)
    expect(status).toBe(413);
    expect(sent).toBeGreaterThan(0);
  });

  test("an undeclared (chunked) oversized JSON body is refused with 413", async ({ page }) => {
    await page.goto("/");
    const status = await page.evaluate(async () => {
      const response = await fetch("/api/service/checkout", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email: "a@example.com", padding: "x".repeat(200 * 1024) }),
      });
      return response.status;
    });
    expect(status).toBe(413);
  });

  test("an oversized checkout field is named, never a 500", async ({ page }) => {
    await page.goto("/products/aurora-x1");
    await page.getByRole("button", { name: "Add to cart" }).click();
    await expect(page.getByRole("status")).toContainText("Added to your cart.");
    await page.goto("/checkout");
    // What a script or a pasted novel would send: past the field's limit, under the body's.
    await page.locator("#billing_given_name").evaluate((input) => {
      (input as HTMLInputElement).removeAttribute("maxlength");
      (input as HTMLInputElement).value = "R".repeat(5000);
    });
    await placeOrder(page);
    await expect(page.locator("#billing_given_name-error")).toHaveText(
      "A first name is too long (80 characters at most).",
    );
  });

  test("malformed Server Action calls are a 4xx, never a 500; the page's own call still works", async ({
    page,
  }) => {
    await page.goto("/account/login");
    // The login form's action id, as React renders it for a page without JavaScript: its
    // `$ACTION_<n>:0` field, where React numbers the page's forms with bound state in the order
    // it renders them (streamed parts first done first), so n is not always 1.
    const reference = await page
      .getByRole("main")
      .locator('form input[type="hidden"][name^="$ACTION_"][name$=":0"]')
      .getAttribute("value");
    const id = (JSON.parse(reference ?? "{}") as { id?: string }).id ?? "";
    expect(id).toMatch(/^[0-9a-f]{42}$/);
    const call = (body: BodyInit, headers: Record<string, string> = {}) =>
      fetch(`${SHOP}/account/login`, {
        method: "POST",
        headers: { "next-action": id, origin: SHOP, ...headers },
        body,
      }).then((response) => response.status);
    const text = { "content-type": "text/plain;charset=UTF-8" };
    const multipart = (root: string) => {
      const form = new FormData();
      // Not an email: the form answers before any password check, so no throttle is touched.
      form.set("_1_email", "not-an-email");
      form.set("_1_password", "x");
      form.set("0", root);
      return form;
    };
    const statuses = {
      "not JSON": await call("not json", text),
      "not the arguments' array": await call('{"a":1}', text),
      "a reference to a missing part": await call('["$Q1"]', text),
      "a promise reference": await call('["$@1"]', text),
      "numbers instead of the form": await call("[1,2,3]", text),
      "an unparsable multipart body": await call("--x\r\ngarbage", {
        "content-type": "multipart/form-data; boundary=zzz",
      }),
      "a multipart body without the form": await call(multipart("[1,2]")),
      "a foreign Origin": await call(multipart('[{},"$K1"]'), { origin: "https://evil.example" }),
    };
    for (const [what, status] of Object.entries(statuses)) {
      expect(status >= 400 && status < 500, `${what}: ${status}`).toBe(true);
    }
    // What the page itself sends passes the screen: the login form answers (the email's error).
    expect(await call(multipart('[{},"$K1"]'))).toBe(200);
  });

  test("search treats % and _ as text", async ({ page }) => {
    for (const q of ["%", "_", "a%", "%_%"]) {
      await page.goto(`/search?q=${encodeURIComponent(q)}`);
      await expect(page.getByRole("heading", { level: 1 })).toContainText(q);
      await expect(page.locator(".product-card")).toHaveCount(0);
    }
    await page.goto("/search?q=aurora");
    await expect(page.locator(".product-card").first()).toBeVisible();
  });
});

test.describe("the emulator's control API from a web page @security @emulator", () => {
  test("a page on another origin cannot reset it, fault it, move its clock or read its journal", async ({
    page,
    emulator,
  }) => {
    void emulator; // from the seed, and back to it afterwards
    await fetch(`${EMULATOR_URL}/__emulator/tradeins`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ session_hash: "f".repeat(64) }),
    });
    const clockBefore = await (await fetch(`${EMULATOR_URL}/__emulator/clock`)).json();
    // The shop's origin plays the foreign page.
    await page.goto("/");
    const results = await page.evaluate(async (base) => {
      const out: string[] = [];
      const attempts: [string, RequestInit][] = [
        ["/__emulator/reset", { method: "POST", mode: "no-cors" }],
        [
          "/__emulator/clock/advance",
          {
            method: "POST",
            mode: "no-cors",
            body: '{"days":3}',
            headers: { "content-type": "text/plain" },
          },
        ],
        [
          "/__emulator/faults",
          {
            method: "POST",
            mode: "no-cors",
            body: '{"endpoint":"/oauth2/token/","status":500}',
          },
        ],
        [
          "/__emulator/clock/advance",
          { method: "POST", body: '{"days":3}', headers: { "content-type": "application/json" } },
        ],
        ["/__emulator/journal", {}],
      ];
      for (const [path, init] of attempts) {
        try {
          const response = await fetch(base + path, init);
          out.push(`${path}: ${response.type} ${response.status}`);
        } catch (error) {
          out.push(`${path}: refused ${(error as Error).name}`);
        }
      }
      return out;
    }, EMULATOR_URL);
    // No CORS answer for anything the page could read.
    expect(results.filter((line) => / (basic|cors) 2\d\d$/.test(line))).toEqual([]);
    const clockAfter = await (await fetch(`${EMULATOR_URL}/__emulator/clock`)).json();
    expect(clockAfter.offset_ms).toBe(clockBefore.offset_ms);
    const faults = await (await fetch(`${EMULATOR_URL}/__emulator/faults`)).json();
    expect(faults.faults).toEqual([]);
    const tradeIns = await (await fetch(`${EMULATOR_URL}/__emulator/tradeins`)).json();
    expect(tradeIns.tradein_items).toHaveLength(1);
  });
});
