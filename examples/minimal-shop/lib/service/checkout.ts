import { checkoutFormFields, shopRoutes } from "@service-integration/kit";

// Where this shop mounts the kit's handlers and what its checkout form calls its inputs: the
// kit's defaults (the checkout's body schema is in ./callbacks.ts, server side). No
// server-only import: the checkout form (a client component) passes the routes and fields to
// the payment option.

export const routes = shopRoutes();
export const formFields = checkoutFormFields();
