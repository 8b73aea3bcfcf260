import type { Metadata } from "next";
import { requireAdmin } from "@/lib/auth/admin";
import { parseOrderFilters } from "@/lib/shop/admin-filters";
import { ORDER_STATUSES, statusLabel } from "@/lib/shop/order-status";
import { listKnownStatuses, listOrders } from "@/lib/shop/orders";
import { localDateTime, paymentLabel, tradeInSummary } from "@/lib/ui/labels";
import { Link } from "@/lib/ui/link";
import { Money } from "@/lib/ui/money";
import { ReconcileButton } from "@/lib/ui/order-update-forms";

export const metadata: Metadata = { title: "Orders" };

export default async function AdminOrdersPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  await requireAdmin();
  const filters = parseOrderFilters(await searchParams);
  const [orders, seen] = await Promise.all([listOrders(filters), listKnownStatuses()]);
  const statuses = [...new Set([...ORDER_STATUSES, ...seen])];
  return (
    <>
      <h1>Orders</h1>
      <ReconcileButton />
      <form className="filters" aria-label="Filter orders">
        <div className="field">
          <label htmlFor="status">Status</label>
          <select id="status" name="status" defaultValue={filters.raw.status}>
            <option value="">Any</option>
            {statuses.map((s) => (
              <option key={s} value={s}>
                {statusLabel(s)}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="payment">Payment</label>
          <select id="payment" name="payment" defaultValue={filters.raw.payment}>
            <option value="">Any</option>
            <option value="card">Card</option>
            <option value="service_pay">Service Pay</option>
          </select>
        </div>
        <div className="field">
          <label htmlFor="from">From</label>
          <input id="from" name="from" type="date" defaultValue={filters.raw.from} />
        </div>
        <div className="field">
          <label htmlFor="to">To</label>
          <input id="to" name="to" type="date" defaultValue={filters.raw.to} />
        </div>
        <div className="field">
          <label htmlFor="q">Order, email or service order id</label>
          <input id="q" name="q" type="search" defaultValue={filters.raw.q} />
        </div>
        <button type="submit" className="button">
          Filter
        </button>
        <Link href="/admin">Clear</Link>
      </form>
      <p role="status" className="muted">
        {orders.length} {orders.length === 1 ? "order" : "orders"}
      </p>
      {orders.length > 0 ? (
        <table className="order-table responsive-table">
          <thead>
            <tr>
              <th scope="col">Order</th>
              <th scope="col">Placed</th>
              <th scope="col">Customer</th>
              <th scope="col">Payment</th>
              <th scope="col">Status</th>
              <th scope="col">Trade-in</th>
              <th scope="col">Items</th>
              <th scope="col">Total</th>
            </tr>
          </thead>
          <tbody>
            {orders.map((o) => (
              <tr key={o.id} data-testid="admin-order-row">
                <th scope="row">
                  <Link href={`/admin/orders/${o.id}`}>{o.number}</Link>
                </th>
                <td data-label="Placed">
                  <time dateTime={o.createdAt.toISOString()}>{localDateTime(o.createdAt)}</time>
                </td>
                <td data-label="Customer" className="order-table__email">
                  {o.email}
                </td>
                <td data-label="Payment">{paymentLabel(o.paymentMethod)}</td>
                <td data-label="Status">{statusLabel(o.status)}</td>
                <td data-label="Trade-in" data-testid="admin-order-trade-in">
                  {tradeInSummary(o) || "None"}
                </td>
                <td data-label="Items">{o._count.items}</td>
                <td data-label="Total">
                  <Money cents={o.total} currency={o.currency} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </>
  );
}
