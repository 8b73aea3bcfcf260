// The storefront's own steps for the service journeys: the shop's pages and the Service Pay
// radio the shop renders (contract, Front-end SDK › Payment option markup). Nothing here knows
// the SDK's screens; that is ./service-sdk-driver.ts.
import { expect, type Locator, type Page } from "@playwright/test";
import { adminLogin, placeOrder, SHOPPER } from "../fixtures";
import { SESSION_COOKIE, signedInShopSession } from "./shop-session";
import { STACK } from "./stack";

export class ShopSteps {
  constructor(
    readonly page: Page,
    private readonly options: { signInByForm?: boolean } = {},
  ) {}

  async login(account: { email: string; password: string } = SHOPPER): Promise<void> {
    await this.page.goto("/account/login");
    await this.page.getByLabel("Email").fill(account.email);
    await this.page.getByLabel("Password").fill(account.password);
    await this.page.getByRole("main").getByRole("button", { name: "Log in" }).click();
    await expect(this.page).toHaveURL((url) => url.pathname !== "/account/login");
  }

  /**
   * Starts the journey as a shopper who has just logged in (default: SHOPPER), without the form:
   * the browser gets the sealed session cookie the login would have left (storage state, made
   * by ./shop-session.ts). Only for a fresh browser, before the first page: a shopper who has
   * already browsed logs in through the form (`login`), which keeps the session's cart. With
   * the fixture option signInByForm (the cluster project) it is the form.
   */
  async startSignedIn(account: { email: string; password: string } = SHOPPER): Promise<void> {
    if (this.options.signInByForm) return this.login(account);
    const context = this.page.context();
    if ((await context.cookies()).some((c) => c.name === SESSION_COOKIE)) {
      throw new Error("this browser already has a shop session: log in through the form (login)");
    }
    await context.addCookies([
      {
        name: SESSION_COOKIE,
        value: await signedInShopSession(account.email),
        url: STACK.shopUrl,
        httpOnly: true,
        sameSite: "Lax",
      },
    ]);
  }

  async addToCart(slug: string, quantity = 1): Promise<void> {
    await this.page.goto(`/products/${slug}`);
    await this.page.getByLabel("Quantity").selectOption(String(quantity));
    await this.page.getByRole("button", { name: "Add to cart" }).click();
    await expect(this.page.getByRole("status")).toContainText("Added to your cart.");
  }

  /**
   * Types a promotion code in the cart page's field and applies it, as a shopper does; returns
   * the status line, which says it is applied or why it is refused.
   */
  async applyPromotionCode(code: string): Promise<Locator> {
    const field = this.page.getByRole("textbox", { name: "Promotion code" });
    await field.fill(code);
    await this.page.getByRole("button", { name: "Apply", exact: true }).click();
    const status = this.page.getByTestId("promotion-code-status");
    await expect(status).not.toBeEmpty();
    return status;
  }

  async switchCurrency(currency: "EUR" | "GBP"): Promise<void> {
    const name = currency === "GBP" ? "£ GBP" : "€ EUR";
    await this.page.getByRole("button", { name }).click();
    await expect(this.page.getByRole("button", { name })).toHaveAttribute("aria-pressed", "true");
  }

  async openCheckout(): Promise<void> {
    await this.page.goto("/checkout");
    await expect(this.page.getByRole("heading", { level: 1, name: "Checkout" })).toBeVisible();
  }

  /** The service's radio: name payment_method, value service_pay. */
  servicePayRadio(): Locator {
    return this.page.locator('input[name="payment_method"][value="service_pay"]');
  }

  /** The whole Service Pay option (radio, label, icon, texts). */
  servicePayOption(): Locator {
    return this.page.getByTestId("service-pay-option");
  }

  /**
   * Waits until the checkout's option reflects the SDK's current details: the option marks the
   * mode it rendered in `data-mode` ("unavailable" when not shown).
   */
  async expectServicePayMode(mode: string, template?: string): Promise<void> {
    const state = this.page.getByTestId("service-pay-state");
    await expect(state).toHaveAttribute("data-mode", mode);
    if (template) await expect(state).toHaveAttribute("data-template", template);
  }

  /** tradein_invalid with `template`: the option is disabled and its explanation is shown. */
  async expectServicePayDisabled(template: string): Promise<void> {
    await this.expectServicePayMode("tradein_invalid", template);
    await expect(this.servicePayRadio()).toBeDisabled();
    await expect(this.servicePayExplanation()).toHaveAttribute("data-template", template);
    await expect(this.servicePayExplanation()).not.toBeEmpty();
  }

  cardRadio(): Locator {
    return this.page.locator('input[name="payment_method"][value="card"]');
  }

  /** Place order, once the payment methods have settled (../fixtures placeOrder). */
  async placeOrder(): Promise<void> {
    await placeOrder(this.page);
  }

  orderStatus(): Locator {
    return this.page.getByTestId("order-status");
  }

  /** The explanation shown under the disabled option (tradein_invalid). */
  servicePayExplanation(): Locator {
    return this.page.getByTestId("service-pay-explanation");
  }

  /** Signs in to the back office in this tab and opens one order; returns its history list. */
  async openAdminOrder(orderNumber: string): Promise<Locator> {
    await adminLogin(this.page);
    await this.page.getByLabel("Order, email or service order id").fill(orderNumber);
    await this.page.getByRole("button", { name: "Filter" }).click();
    await this.page.getByRole("link", { name: orderNumber }).click();
    await expect(this.page.getByRole("heading", { name: `Order ${orderNumber}` })).toBeVisible();
    return this.page.getByTestId("status-history");
  }

  tradeInDiscount(): Locator {
    return this.page.getByTestId("order-trade-in-discount");
  }

  /**
   * The order summary (cart and checkout pages) as the shopper reads it: the amounts before
   * delivery in cents, and on the checkout page each line ("1 × Aurora X1"); the figures a
   * cross-party check derives its sums from.
   */
  async orderSummary(): Promise<{
    lines: { quantity: number; name: string }[];
    subtotal: number;
    vat: number;
    /** the promotion codes' discounts shown, in cents, added up (0 without a code) */
    discounts: number;
  }> {
    const summary = this.page.getByRole("region", { name: "Order summary" });
    const amount = async (term: string) =>
      centsOf(
        (await summary
          .locator(`xpath=.//dt[normalize-space()="${term}"]/following-sibling::dd[1]`)
          .textContent()) ?? "",
      );
    const lines = (await summary.locator(".summary__lines li").allTextContents()).map((text) => {
      const [, quantity = "", name = ""] = /^(\d+) × (.+)$/.exec(text.trim()) ?? [];
      return { quantity: Number(quantity), name };
    });
    const discounts = (await summary.getByTestId("cart-discount").locator("dd").allTextContents())
      .map(centsOf)
      .reduce((sum, cents) => sum + cents, 0);
    return {
      lines,
      subtotal: await amount("Subtotal (before VAT)"),
      vat: await amount("VAT"),
      discounts,
    };
  }
}

/** The cents of a shown amount ("€1,234.56", "−£4.99" → 123456, 499: sign dropped). */
export function centsOf(text: string): number {
  const match = /(\d[\d,]*)\.(\d{2})/.exec(text);
  if (!match) throw new Error(`no amount in ${JSON.stringify(text)}`);
  return Number((match[1] ?? "").replace(/,/g, "")) * 100 + Number(match[2]);
}
