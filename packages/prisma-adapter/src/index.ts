// @service-integration/prisma-adapter: what both providers share, the shop's callbacks (the
// kit's types), the part of its Prisma client the adapter uses, and the sealed token row
// (sealedTokenRow). The adapter of each database: "./pg" and "./sqlite"; the models:
// prisma/service.prisma.
export type {
  CreateOrderParams,
  NewOrderColumns,
  ShopCallbacks,
  StoredTokens,
  TokenSealer,
} from "@service-integration/kit";
export type { OrderRow, ServiceClient, ServiceModels } from "./client.js";
export {
  type AdapterOptions,
  type OrderLockKeys,
  type PrismaServiceAdapter,
  sealedTokenRow,
} from "./core.js";
