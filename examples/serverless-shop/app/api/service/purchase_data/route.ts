import { serviceRoutes } from "@sls/lib/service/wiring";

// {merchant_callbacks_base}/purchase_data (the kit's handler).
export const dynamic = "force-dynamic";
export const GET = serviceRoutes.purchaseData;
