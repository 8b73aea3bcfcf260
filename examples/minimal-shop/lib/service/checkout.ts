import { checkoutBodySchema, checkoutFormFields, shopRoutes } from "@service-integration/kit";

// Where this shop mounts the kit's handlers, what its checkout form calls its inputs, and the
// checkout's details as the routes and the card action take them: the kit's defaults. No
// server-only import: the checkout form (a client component) passes the routes and fields to
// the payment option.

export const routes = shopRoutes();
export const formFields = checkoutFormFields();
/** The body of the payment option's checkout routes (the kit's CheckoutDetailsBody). */
export const checkoutBody = checkoutBodySchema({ shippingMethods: ["standard"] });
