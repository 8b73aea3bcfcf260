import { serviceOrderIdOf } from "@service-integration/kit/server";
import { getServiceClient } from "@/lib/service-adapter/service";
import { OrderUpdateForms } from "./order-update-forms";

/** Server part of the order page's post-purchase section: which id the service knows the order
 *  by, and whether the API user may update orders at all (scope `updates`). */
export async function ServiceOrderUpdates({
  order,
}: {
  order: {
    id: string;
    number: string;
    status: string;
    serviceOrderId: string | null;
    tradeInStatus: string | null;
    items: { productId: string; name: string; quantity: number }[];
  };
}) {
  const serviceOrderId = serviceOrderIdOf(order);
  if (!serviceOrderId) return null;
  let canUpdate = true;
  try {
    canUpdate = await getServiceClient().tokens.hasScope("updates");
  } catch {
    // Unknown until the service can be reached; the update itself will say.
  }
  return (
    <section aria-labelledby="service-updates-heading">
      <h2 id="service-updates-heading">Service order updates</h2>
      <OrderUpdateForms
        orderId={order.id}
        status={order.status}
        serviceOrderId={serviceOrderId}
        canUpdate={canUpdate}
        items={order.items.map((i) => ({
          productId: i.productId,
          name: i.name,
          quantity: i.quantity,
        }))}
      />
    </section>
  );
}
