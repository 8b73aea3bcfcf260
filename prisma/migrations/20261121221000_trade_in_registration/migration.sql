-- AlterTable
ALTER TABLE "Order" ADD COLUMN "tradeInMessage" TEXT;
ALTER TABLE "Order" ADD COLUMN "tradeInStatus" TEXT;

-- CreateTable
CREATE TABLE "TradeInRegistration" (
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
    "nextAttemptAt" DATETIME,
    "response" TEXT NOT NULL DEFAULT '',
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "SessionTradeIn" (
    "sessionId" TEXT NOT NULL PRIMARY KEY,
    "tradeInId" TEXT NOT NULL,
    "seenAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateIndex
CREATE UNIQUE INDEX "TradeInRegistration_orderId_key" ON "TradeInRegistration"("orderId");

-- CreateIndex
CREATE INDEX "TradeInRegistration_status_nextAttemptAt_idx" ON "TradeInRegistration"("status", "nextAttemptAt");

