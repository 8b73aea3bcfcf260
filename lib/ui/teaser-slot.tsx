/**
 * Where the service's teasers go (contract, Front-end SDK › Teasers: elements with class
 * `service-teaser` and `data-type` banner | product-widget | cart-summary | thank-you), placed as
 * the public docs recommend on home, category, product, cart, checkout and confirmation pages.
 * The SDK appends its teaser inside this element, so React renders it empty and never gives it
 * children: a re-render then leaves the SDK's teaser in place. When the SDK is absent the element
 * stays empty and takes no room.
 */
export type TeaserType = "banner" | "product-widget" | "cart-summary" | "thank-you";

export function TeaserSlot({ type }: { type: TeaserType }) {
  return <div className="service-teaser" data-type={type} suppressHydrationWarning />;
}
