import NextLink from "next/link";
import type { ComponentProps } from "react";

/**
 * The shop's links: next/link without prefetching.
 *
 * Every page of the shop is rendered per request (the nonce CSP, docs/decisions/catalog-rendering.md),
 * so next/link's default prefetch renders each linked page on the server as soon as its link
 * scrolls into view: a product view asked for about twenty renders (header, categories, footer,
 * cards) of pages the shopper mostly never opens, and the browser parsed them all. A click still
 * navigates client-side, with one render of the page it opens.
 */
export function Link(props: ComponentProps<typeof NextLink>) {
  return <NextLink prefetch={false} {...props} />;
}
