// The shop's callbacks and the token sealer's type are the kit's, defined once there
// (@service-integration/kit: ShopCallbacks, CreateOrderParams, NewOrderColumns, TokenSealer);
// this package re-exports them under the names it always had. README.md shows each member in
// this adapter's own queries.
export type {
  CreateOrderParams,
  NewOrderColumns,
  ShopCallbacks,
  StoredTokens,
  TokenSealer,
} from "@service-integration/kit";
