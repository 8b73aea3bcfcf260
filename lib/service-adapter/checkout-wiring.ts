// This shop's routes and checkout field names, as the kit's browser side reads them
// (ShopRoutes, CheckoutFormFields in shop-ports.ts): the kit's defaults, which this shop's app/
// routes and checkout form (lib/ui/checkout-form.tsx; parsed by lib/shop/checkout-input.ts)
// follow. No server-only import: the checkout form, a client component, passes the field names
// and routes to the payment option.

import { checkoutFormFields as formFields, shopRoutes as routes } from "@service-integration/kit";

/** Where this shop mounts the kit's handlers and its confirmation page (app/). */
export const shopRoutes = routes();

/** The checkout form's inputs. */
export const checkoutFormFields = formFields();
