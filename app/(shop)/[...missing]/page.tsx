import { notFound } from "next/navigation";

/** Any address the shop does not know: its 404 in the shop's layout (./../not-found.tsx). */
export default function UnknownPage() {
  notFound();
}
