// The service API's endpoint table (contract, "Service API"): names for fault injection and
// the journal, and the exact trailing-slash form of every path.

export interface EndpointDef {
  /** Short name used by the fault rules and shown in the README. */
  name: string;
  method: "GET" | "POST";
  /** The path as the contract writes it. */
  path: string;
  pattern: RegExp;
}

export const SERVICE_ENDPOINTS: readonly EndpointDef[] = [
  { name: "token", method: "POST", path: "/oauth2/token/", pattern: /^\/oauth2\/token\/$/ },
  { name: "merchants", method: "GET", path: "/core/merchants/", pattern: /^\/core\/merchants\/$/ },
  {
    name: "session",
    method: "GET",
    path: "/core/sessions/{session_hash}/",
    pattern: /^\/core\/sessions\/[^/]+\/$/,
  },
  {
    name: "tradein_item",
    method: "GET",
    path: "/core/tradeinitems/{trade_in_id}/",
    pattern: /^\/core\/tradeinitems\/[^/]+\/$/,
  },
  {
    name: "register_purchase",
    method: "POST",
    path: "/register-purchase",
    pattern: /^\/register-purchase$/,
  },
  {
    name: "order_update",
    method: "POST",
    path: "/payments/orders/update",
    pattern: /^\/payments\/orders\/update$/,
  },
  {
    name: "orders_list",
    method: "GET",
    path: "/payments/orders/",
    pattern: /^\/payments\/orders\/$/,
  },
];

export function endpointFor(path: string): EndpointDef | undefined {
  for (const endpoint of SERVICE_ENDPOINTS) if (endpoint.pattern.test(path)) return endpoint;
  return undefined;
}

/** The endpoint the caller meant when it got the trailing slash wrong. */
export function wrongSlashFor(path: string): EndpointDef | undefined {
  const toggled = path.endsWith("/") ? path.slice(0, -1) : `${path}/`;
  return endpointFor(toggled);
}
