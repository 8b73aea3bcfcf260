import { type Address, countryName } from "@/lib/shop/address";
import { Money } from "./money";

export function AddressBlock({ title, address }: { title: string; address: Address }) {
  return (
    <section className="address-block">
      <h3>{title}</h3>
      <address>
        {address.given_name} {address.family_name}
        <br />
        {address.address}
        <br />
        {address.postal_code} {address.city}
        {address.state ? `, ${address.state}` : ""}
        <br />
        {countryName(address.country_code)}
        <br />
        {address.phone}
      </address>
    </section>
  );
}

interface OrderLike {
  currency: string;
  price: number;
  tax: number;
  shippingPrice: number;
  discountTotal: number;
  tradeInDiscount: number;
  total: number;
  /** the promotion codes' discounts (OrderDiscount: `code` is the contract Discount's id) */
  discounts: { id: string; code: string; name: string; total: number }[];
  items: {
    id: string;
    name: string;
    quantity: number;
    price: number;
    tax: number;
    total: number;
  }[];
}

export function OrderItemsTable({ order }: { order: OrderLike }) {
  const c = order.currency;
  return (
    <table className="order-table">
      <caption className="visually-hidden">Items and amounts</caption>
      <thead>
        <tr>
          <th scope="col">Item</th>
          <th scope="col">Quantity</th>
          <th scope="col">Unit price</th>
          <th scope="col">VAT</th>
          <th scope="col">Total</th>
        </tr>
      </thead>
      <tbody>
        {order.items.map((item) => (
          <tr key={item.id}>
            <th scope="row">{item.name}</th>
            <td>{item.quantity}</td>
            <td>
              <Money cents={item.price} currency={c} />
            </td>
            <td>
              <Money cents={item.tax} currency={c} />
            </td>
            <td>
              <Money cents={item.total} currency={c} />
            </td>
          </tr>
        ))}
      </tbody>
      <tfoot>
        <tr>
          <th scope="row" colSpan={4}>
            Subtotal before VAT
          </th>
          <td>
            <Money cents={order.price} currency={c} />
          </td>
        </tr>
        <tr>
          <th scope="row" colSpan={4}>
            VAT
          </th>
          <td>
            <Money cents={order.tax} currency={c} />
          </td>
        </tr>
        <tr>
          <th scope="row" colSpan={4}>
            Delivery
          </th>
          <td>
            <Money cents={order.shippingPrice} currency={c} />
          </td>
        </tr>
        {order.discounts.map((discount) => (
          <tr key={discount.id} data-testid="order-discount">
            <th scope="row" colSpan={4}>
              {discount.code.replace(/^promo:/, "")} ({discount.name})
            </th>
            <td className="money">
              −<Money cents={discount.total} currency={c} />
            </td>
          </tr>
        ))}
        {order.tradeInDiscount > 0 ? (
          <tr>
            <th scope="row" colSpan={4}>
              Trade-in discount
            </th>
            <td className="money">
              −<Money cents={order.tradeInDiscount} currency={c} />
            </td>
          </tr>
        ) : null}
        <tr className="order-table__total">
          <th scope="row" colSpan={4}>
            Total
          </th>
          <td data-testid="order-total">
            <Money cents={order.total} currency={c} />
          </td>
        </tr>
      </tfoot>
    </table>
  );
}
