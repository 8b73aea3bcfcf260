import type { Metadata } from "next";
import { Link } from "@/lib/ui/link";

export const metadata: Metadata = { title: "Page not found" };

// Outside the shop's pages (the back office): the shop's own 404 is app/(shop)/not-found.tsx.

export default function NotFound() {
  return (
    <main id="main" className="page">
      <h1>Page not found</h1>
      <p>
        <Link href="/">Back to the shop</Link>
      </p>
    </main>
  );
}
