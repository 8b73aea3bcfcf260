"use client";

import { usePathname, useSearchParams } from "next/navigation";

/** The header's search box; on the results page it keeps the query, to refine it. */
export function SearchField() {
  const pathname = usePathname();
  const params = useSearchParams();
  const query = pathname === "/search" ? (params.get("q") ?? "") : "";
  return (
    <input
      key={query}
      id="site-search"
      name="q"
      type="search"
      placeholder="Search products"
      defaultValue={query}
    />
  );
}
