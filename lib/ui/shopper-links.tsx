"use client";

import { useEffect, useState } from "react";
import type { ShopperSummary } from "@/lib/shop/shopper-summary";
import { Link } from "@/lib/ui/link";

function isSummary(value: unknown): value is ShopperSummary {
  const v = value as ShopperSummary | null;
  return (
    typeof v === "object" &&
    v !== null &&
    Number.isSafeInteger(v.cartCount) &&
    v.cartCount >= 0 &&
    typeof v.signedIn === "boolean"
  );
}

/**
 * The header's account link and cart count. A dynamic page renders them with the shopper's
 * summary; a stored catalog page is the same for everyone, so it renders them without one and
 * asks the shop once it is in the browser (docs/decisions/catalog-rendering.md). Until then the
 * count is empty and the link is "Log in"; both keep their room, so nothing moves when they fill.
 */
export function ShopperLinks({ shopper }: { shopper: ShopperSummary | null }) {
  const [fetched, setFetched] = useState<ShopperSummary | null>(null);
  useEffect(() => {
    if (shopper) return;
    const controller = new AbortController();
    fetch("/api/shopper-summary", { cache: "no-store", signal: controller.signal })
      .then((response) => (response.ok ? response.json() : null))
      .then((body: unknown) => {
        if (isSummary(body)) setFetched(body);
      })
      .catch(() => {
        // Aborted, or the shop unreachable: the header keeps its anonymous look.
      });
    return () => controller.abort();
  }, [shopper]);
  const shown = shopper ?? fetched;
  const count = shown?.cartCount;
  return (
    <>
      <Link href={shown?.signedIn ? "/account" : "/account/login"} className="account-link">
        {shown?.signedIn ? "My account" : "Log in"}
      </Link>
      <Link href="/cart" className="cart-link">
        Cart <span className="cart-link__count">{count ?? ""}</span>
        {count === undefined ? null : (
          <span className="visually-hidden"> {count === 1 ? "item" : "items"}</span>
        )}
      </Link>
    </>
  );
}
