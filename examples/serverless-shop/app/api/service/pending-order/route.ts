import { serviceRoutes } from "@sls/lib/service/wiring";

// ready-to-place-order: the pending order of the cart the service names (the kit's handler).
export const dynamic = "force-dynamic";
export const POST = serviceRoutes.pendingOrder;
