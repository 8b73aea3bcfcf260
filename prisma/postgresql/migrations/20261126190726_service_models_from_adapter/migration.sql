-- OrderStatusChange is now @service-integration/prisma-adapter's model, which stands alone beside any
-- shop's models: its foreign key to "Order" goes (orderId still names the order, indexed).
-- DropForeignKey
ALTER TABLE "OrderStatusChange" DROP CONSTRAINT "OrderStatusChange_orderId_fkey";
