// @service-integration/prisma-adapter: what both providers share, the shop's callbacks and the
// part of its Prisma client the adapter uses. The adapter of each database: "./pg" and
// "./sqlite"; the models: prisma/service.prisma.
export type {
  CreateOrderParams,
  NewOrderColumns,
  ShopCallbacks,
  StoredTokens,
  TokenSealer,
} from "./callbacks.js";
export type { OrderRow, ServiceClient, ServiceModels } from "./client.js";
export type { AdapterOptions, OrderLockKeys, PrismaServiceAdapter } from "./core.js";
