import { serviceRoutes } from "@sls/lib/service/wiring";

// {merchant_webhook_base}/order: the signed notification, at most 64 KB (the kit's handler).
export const dynamic = "force-dynamic";
export const POST = serviceRoutes.orderWebhook;
