-- OrderStatusChange is now @service-integration/prisma-adapter's model, which stands alone beside any
-- shop's models: its foreign key to "Order" goes (orderId still names the order, indexed).
-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_OrderStatusChange" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "orderId" TEXT NOT NULL,
    "from" TEXT,
    "to" TEXT NOT NULL,
    "source" TEXT NOT NULL,
    "note" TEXT NOT NULL DEFAULT '',
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);
INSERT INTO "new_OrderStatusChange" ("createdAt", "from", "id", "note", "orderId", "source", "to") SELECT "createdAt", "from", "id", "note", "orderId", "source", "to" FROM "OrderStatusChange";
DROP TABLE "OrderStatusChange";
ALTER TABLE "new_OrderStatusChange" RENAME TO "OrderStatusChange";
CREATE INDEX "OrderStatusChange_orderId_createdAt_idx" ON "OrderStatusChange"("orderId", "createdAt");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;
