import { serviceRoutes } from "@sls/lib/service/wiring";

// {merchant_callbacks_base}/shopper_data (the kit's handler).
export const dynamic = "force-dynamic";
export const GET = serviceRoutes.shopperData;
