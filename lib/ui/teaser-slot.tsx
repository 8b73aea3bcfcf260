/**
 * Where the service's teasers go (contract, Front-end SDK: elements with class `service-teaser`
 * and `data-type` banner | product-widget | cart-summary | thank-you). The shop renders nothing
 * here yet; the integration replaces this component's body, so every placement is already in
 * the right spot on home, category, product, cart, checkout and confirmation pages.
 */
export type TeaserType = "banner" | "product-widget" | "cart-summary" | "thank-you";

export function TeaserSlot(_props: { type: TeaserType }) {
  return null;
}
