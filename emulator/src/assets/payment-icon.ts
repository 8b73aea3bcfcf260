// The service's payment icon, served at {assets_url}/v1/service-pay.svg: the contract's payment
// option "must contain the service's payment icon", so the service hands it out rather than
// each merchant drawing its own.

export const PAYMENT_ICON_PATH = "/assets/v1/service-pay.svg";

export const PAYMENT_ICON_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 48 32" role="img" aria-label="Service Pay">' +
  '<rect width="48" height="32" rx="6" fill="#0b5d4b"/>' +
  '<path d="M14 11.5a5.5 5.5 0 0 1 9.6-3.7l-2.2 2a2.5 2.5 0 1 0-.4 3.7l2.2 2A5.5 5.5 0 0 1 14 11.5z" fill="#fff"/>' +
  '<path d="M34 20.5a5.5 5.5 0 0 1-9.6 3.7l2.2-2a2.5 2.5 0 1 0 .4-3.7l-2.2-2A5.5 5.5 0 0 1 34 20.5z" fill="#9be3c9"/>' +
  '<path d="M22 15h4v2h-4z" fill="#fff"/></svg>';
