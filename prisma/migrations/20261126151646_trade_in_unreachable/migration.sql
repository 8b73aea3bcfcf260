-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_TradeInRegistration" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "orderId" TEXT NOT NULL,
    "sessionHash" TEXT NOT NULL,
    "cart" TEXT NOT NULL,
    "orderAmount" INTEGER NOT NULL,
    "customerId" TEXT,
    "status" TEXT NOT NULL,
    "precheck" BOOLEAN NOT NULL DEFAULT true,
    "reason" TEXT NOT NULL DEFAULT '',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "lastError" TEXT NOT NULL DEFAULT '',
    "unreachable" BOOLEAN NOT NULL DEFAULT false,
    "nextAttemptAt" DATETIME,
    "response" TEXT NOT NULL DEFAULT '',
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL
);
INSERT INTO "new_TradeInRegistration" ("attempts", "cart", "createdAt", "customerId", "id", "lastError", "nextAttemptAt", "orderAmount", "orderId", "precheck", "reason", "response", "sessionHash", "status", "updatedAt") SELECT "attempts", "cart", "createdAt", "customerId", "id", "lastError", "nextAttemptAt", "orderAmount", "orderId", "precheck", "reason", "response", "sessionHash", "status", "updatedAt" FROM "TradeInRegistration";
DROP TABLE "TradeInRegistration";
ALTER TABLE "new_TradeInRegistration" RENAME TO "TradeInRegistration";
CREATE UNIQUE INDEX "TradeInRegistration_orderId_key" ON "TradeInRegistration"("orderId");
CREATE INDEX "TradeInRegistration_status_nextAttemptAt_idx" ON "TradeInRegistration"("status", "nextAttemptAt");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

