// @service-integration/prisma-adapter: what both providers share, the shop's callbacks, the
// part of its Prisma client the adapter uses, and the sealed token row (sealedTokenRow). The adapter of each database: "./pg" and
// "./sqlite"; the models: prisma/service.prisma.
export type {
  CreateOrderParams,
  NewOrderColumns,
  ShopCallbacks,
  StoredTokens,
  TokenSealer,
} from "./callbacks.js";
export type { OrderRow, ServiceClient, ServiceModels } from "./client.js";
export {
  type AdapterOptions,
  type OrderLockKeys,
  type PrismaServiceAdapter,
  sealedTokenRow,
} from "./core.js";
