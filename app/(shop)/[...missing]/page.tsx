import type { Metadata } from "next";
import { notFound } from "next/navigation";

export const metadata: Metadata = { title: "Page not found" };

/** Any address the shop does not know: its 404 in the shop's layout (../not-found.tsx). */
export default function UnknownPage() {
  notFound();
}
