-- AlterTable
ALTER TABLE "Order" ADD COLUMN     "tradeInMessage" TEXT,
ADD COLUMN     "tradeInStatus" TEXT;

-- CreateTable
CREATE TABLE "TradeInRegistration" (
    "id" TEXT NOT NULL,
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
    "nextAttemptAt" TIMESTAMP(3),
    "response" TEXT NOT NULL DEFAULT '',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "TradeInRegistration_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "SessionTradeIn" (
    "sessionId" TEXT NOT NULL,
    "tradeInId" TEXT NOT NULL,
    "seenAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "SessionTradeIn_pkey" PRIMARY KEY ("sessionId")
);

-- CreateIndex
CREATE UNIQUE INDEX "TradeInRegistration_orderId_key" ON "TradeInRegistration"("orderId");

-- CreateIndex
CREATE INDEX "TradeInRegistration_status_nextAttemptAt_idx" ON "TradeInRegistration"("status", "nextAttemptAt");

