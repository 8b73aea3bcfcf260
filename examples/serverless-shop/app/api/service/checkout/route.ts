import { serviceRoutes } from "@sls/lib/service/wiring";

// the payment option keeps the checkout's details before the service's window opens (the kit's handler).
export const dynamic = "force-dynamic";
export const POST = serviceRoutes.checkout;
