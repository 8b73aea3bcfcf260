import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { getPageSession } from "@/lib/session/session";
import { getCustomer, recentOrders } from "@/lib/shop/customers";
import { statusLabel } from "@/lib/shop/order-status";
import { Link } from "@/lib/ui/link";
import { Money } from "@/lib/ui/money";
import { AddressBlock } from "@/lib/ui/order-details";

export const metadata: Metadata = { title: "Your account" };

export default async function AccountPage() {
  const session = await getPageSession();
  const customer = session.customerId ? await getCustomer(session.customerId) : null;
  if (!customer) redirect("/account/login");
  const orders = await recentOrders(customer.id);
  return (
    <>
      <h1>
        Hello, {customer.given_name} {customer.family_name}
      </h1>
      <p>Signed in as {customer.email}.</p>
      {customer.address ? <AddressBlock title="Saved address" address={customer.address} /> : null}
      <h2>Recent orders</h2>
      {orders.length === 0 ? (
        <p>
          No orders yet. <Link href="/">Find something you like</Link>.
        </p>
      ) : (
        <ul>
          {orders.map((o) => (
            <li key={o.id}>
              {o.number}: {statusLabel(o.status)}, <Money cents={o.total} currency={o.currency} />
            </li>
          ))}
        </ul>
      )}
      {/* A plain post answered with a redirect: a full page load (app/(shop)/account/logout). */}
      <form action="/account/logout" method="post">
        <button type="submit" className="button">
          Log out
        </button>
      </form>
      <p>
        <Link href="/">Continue shopping</Link>
      </p>
    </>
  );
}
