import { Link } from "@/lib/ui/link";

export function SiteFooter() {
  return (
    <footer className="site-footer">
      <p>Circuit &amp; Co. is a demo shop: no real orders, no real payments.</p>
      <p>
        <Link href="/account">Your account</Link> · <Link href="/admin">Back office</Link>
      </p>
    </footer>
  );
}
