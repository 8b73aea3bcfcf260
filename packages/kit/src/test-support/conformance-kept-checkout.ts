// Conformance checks of the kept checkout details (ServicePayTx saveCheckout, dropCheckout).
import { expect, vi } from "vitest";
import { NOT_LOOKED_UP } from "../accepted-valuation.js";
import { createServicePendingOrder, servicePaymentOpen } from "../pending-order.js";
import type { AcceptedValuation } from "../shop-ports.js";
import { askToCollect, cartIdOf, deps } from "./conformance-helpers.js";
import type { ConformanceHost, SeededCart } from "./conformance-host.js";

// ---------------------------------------------------------------------------------------------
// Kept checkout details: dropped, and saved again

/** A valuation the shopper accepted (the service showed it at payment start), in cents. */
export const KNOWN_VALUATION: AcceptedValuation = {
  valuationState: "known",
  valuationItemId: "tradein_1",
  valuationValue: 12_345,
  valuationCurrency: "EUR",
  valuationNote: "conformance: accepted at payment start",
};
export const NO_VALUATION: AcceptedValuation = {
  valuationState: "none",
  valuationItemId: null,
  valuationValue: null,
  valuationCurrency: null,
  valuationNote: "conformance: no accepted trade-in",
};

/** Keeps the seeded cart's details, as the checkout route does at payment start. */
export function keep(
  host: ConformanceHost,
  cart: SeededCart,
  cartId: string,
  valuation?: AcceptedValuation,
) {
  return host.servicePay.transaction((tx) =>
    tx.saveCheckout({
      cartId,
      sessionId: cart.sessionId,
      customerId: null,
      details: cart.details,
      ...(valuation ? { valuation } : {}),
    }),
  );
}

export const valuationOf = (kept: AcceptedValuation | null) =>
  kept && {
    valuationState: kept.valuationState,
    valuationItemId: kept.valuationItemId,
    valuationValue: kept.valuationValue,
    valuationCurrency: kept.valuationCurrency,
    valuationNote: kept.valuationNote,
  };

export async function dropCheckout(host: ConformanceHost) {
  const cart = await host.seedOpenCart();
  const cartId = await cartIdOf(host, cart);
  // Dropping what was never kept (the shopper closed a payment that never started) is harmless.
  await host.servicePay.transaction((tx) => tx.dropCheckout(cartId));
  await keep(host, cart, cartId, NOT_LOOKED_UP);
  expect(await servicePaymentOpen(deps(host), cart.sessionId), "open while kept").toBe(true);
  await host.servicePay.transaction((tx) => tx.dropCheckout(cartId));
  expect(
    await host.servicePay.transaction((tx) => tx.loadCheckout(cartId)),
    "loadCheckout once dropped",
  ).toBeNull();
  expect(
    await host.servicePay.openCartCheckout(cart.sessionId),
    "openCartCheckout once dropped",
  ).toBeNull();
  expect(await servicePaymentOpen(deps(host), cart.sessionId), "no payment open once dropped").toBe(
    false,
  );
  // Dropped twice (the shopper's give-up sent again): still harmless, the cart still open.
  await host.servicePay.transaction((tx) => tx.dropCheckout(cartId));
  expect(await cartIdOf(host, cart), "the cart stays open").toBe(cartId);
}

export async function resaveCheckout(host: ConformanceHost) {
  const cart = await host.seedOpenCart();
  const cartId = await cartIdOf(host, cart);
  // The first save is 40 minutes old (Date moved back; a store that takes the time from its
  // database instead keeps the real time, and the refresh below holds for it too). The shopper
  // starts the payment again: the details are saved again and must count as kept now, or the
  // payment would read as given up (pending-order.ts, servicePaymentOpen: the modal's window).
  vi.useFakeTimers({ toFake: ["Date"] });
  try {
    vi.setSystemTime(Date.now() - 40 * 60 * 1000);
    await keep(host, cart, cartId, KNOWN_VALUATION);
  } finally {
    vi.useRealTimers();
  }
  const before = Date.now();
  await keep(host, cart, cartId);
  const resaved = await host.servicePay.transaction((tx) => tx.loadCheckout(cartId));
  if (!resaved) throw new Error("loadCheckout gives nothing after a re-save");
  // A database clock may keep whole seconds only: a second of slack below.
  expect(resaved.keptAt.getTime(), "keptAt refreshed by the re-save").toBeGreaterThanOrEqual(
    before - 1_000,
  );
  expect(resaved.keptAt.getTime(), "keptAt is now").toBeLessThan(Date.now() + 60_000);
  expect(await servicePaymentOpen(deps(host), cart.sessionId), "the payment is open again").toBe(
    true,
  );
  expect(valuationOf(resaved), "the kept valuation, the re-save omitting it").toEqual(
    KNOWN_VALUATION,
  );
  await keep(host, cart, cartId, NO_VALUATION);
  expect(
    valuationOf(await host.servicePay.transaction((tx) => tx.loadCheckout(cartId))),
    "the valuation the re-save gave",
  ).toEqual(NO_VALUATION);
}

/**
 * What purchase_data answered while the payment was open is kept with the checkout
 * (ShopperSource.noteAskedToCollect), and the pending order is made only when it owes exactly
 * that: another amount, another currency or nothing asked is refused with nothing written; a new
 * payment start forgets it, and a note made from a row read before that start writes nothing.
 */
export async function askedAmount(host: ConformanceHost) {
  const cart = await host.seedOpenCart();
  const cartId = await cartIdOf(host, cart);
  const load = () => host.servicePay.transaction((tx) => tx.loadCheckout(cartId));
  const pending = () =>
    createServicePendingOrder(deps(host), { sessionId: cart.sessionId, customerId: null, cartId });
  const refusedWithNothingWritten = async (why: string) => {
    expect(await pending(), why).toMatchObject({ ok: false, error: "cart_changed" });
    expect(
      await host.servicePay.transaction((tx) => tx.openCartId(cart.sessionId)),
      `${why}: the cart stays open`,
    ).toBe(cartId);
    expect(
      await host.servicePay.transaction((tx) => tx.findOrderFor(null, cartId)),
      `${why}: no order`,
    ).toBeNull();
  };
  // The first payment start is a minute old (Date moved back), so the second one below is
  // kept at another moment.
  vi.useFakeTimers({ toFake: ["Date"] });
  try {
    vi.setSystemTime(Date.now() - 60 * 1000);
    await keep(host, cart, cartId, NOT_LOOKED_UP);
  } finally {
    vi.useRealTimers();
  }
  const first = await load();
  if (!first) throw new Error("loadCheckout gives nothing after a save");
  expect(first.asked, "nothing asked at payment start").toBeNull();
  await refusedWithNothingWritten("nothing was asked");

  const other = cart.currency === "EUR" ? "USD" : "EUR";
  await host.shopper.noteAskedToCollect(first, { amount: cart.owes + 1, currency: cart.currency });
  const noted = await load();
  expect(noted?.asked, "the asked amount, as noted").toEqual({
    amount: cart.owes + 1,
    currency: cart.currency,
  });
  expect(noted?.keptAt.getTime(), "noting keeps keptAt").toBe(first.keptAt.getTime());
  await refusedWithNothingWritten("another amount was asked");
  await host.shopper.noteAskedToCollect(first, { amount: cart.owes, currency: other });
  await refusedWithNothingWritten("another currency was asked");

  // A new payment start forgets what the earlier window was asked; a note of the row as read
  // before it writes nothing.
  await keep(host, cart, cartId, NOT_LOOKED_UP);
  expect((await load())?.asked, "a new payment start forgets the asked amount").toBeNull();
  await host.shopper.noteAskedToCollect(first, { amount: cart.owes, currency: cart.currency });
  expect((await load())?.asked, "a note of a row kept again since writes nothing").toBeNull();
  await refusedWithNothingWritten("the note came from an earlier payment start");

  // purchase_data answering while the payment is open: the order owes what it showed.
  const shown = await askToCollect(host, cart);
  expect((await load())?.asked, "purchase_data's Cart total and currency").toEqual({
    amount: shown?.total,
    currency: shown?.currency,
  });
  expect(await pending(), "the order owing what was asked").toMatchObject({
    ok: true,
    created: true,
  });
}
