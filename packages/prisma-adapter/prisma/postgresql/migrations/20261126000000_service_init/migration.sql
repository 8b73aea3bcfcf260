-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "public";

-- CreateTable
CREATE TABLE "ServiceToken" (
    "id" TEXT NOT NULL,
    "accessToken" TEXT NOT NULL,
    "refreshToken" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "merchantId" TEXT NOT NULL,
    "scope" TEXT NOT NULL,
    "accessExpiresAt" TIMESTAMP(3) NOT NULL,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ServiceToken_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ServiceCheckout" (
    "cartId" TEXT NOT NULL,
    "sessionId" TEXT NOT NULL,
    "customerId" TEXT,
    "email" TEXT NOT NULL,
    "billing" TEXT NOT NULL,
    "shipping" TEXT NOT NULL,
    "shippingMethod" TEXT NOT NULL,
    "valuationState" TEXT,
    "valuationItemId" TEXT,
    "valuationValue" INTEGER,
    "valuationCurrency" TEXT,
    "valuationNote" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ServiceCheckout_pkey" PRIMARY KEY ("cartId")
);

-- CreateTable
CREATE TABLE "ServiceNotification" (
    "id" TEXT NOT NULL,
    "dedupeKey" TEXT NOT NULL,
    "notificationId" TEXT,
    "event" TEXT,
    "serviceOrderId" TEXT,
    "cartId" TEXT,
    "status" TEXT NOT NULL,
    "amount" INTEGER,
    "currency" TEXT,
    "tradeInDiscount" INTEGER,
    "form" TEXT NOT NULL,
    "body" TEXT NOT NULL,
    "outcome" TEXT NOT NULL DEFAULT 'early',
    "orderId" TEXT,
    "receivedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "appliedAt" TIMESTAMP(3),

    CONSTRAINT "ServiceNotification_pkey" PRIMARY KEY ("id")
);

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
    "unreachable" BOOLEAN NOT NULL DEFAULT false,
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

-- CreateTable
CREATE TABLE "Lease" (
    "name" TEXT NOT NULL,
    "holder" TEXT NOT NULL,
    "expiresAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Lease_pkey" PRIMARY KEY ("name")
);

-- CreateTable
CREATE TABLE "IntegrationLogEntry" (
    "seq" SERIAL NOT NULL,
    "key" TEXT NOT NULL,
    "at" TIMESTAMP(3) NOT NULL,
    "kind" TEXT NOT NULL,
    "label" TEXT NOT NULL,
    "status" INTEGER,
    "ok" BOOLEAN NOT NULL,
    "durationMs" INTEGER,
    "detail" TEXT NOT NULL DEFAULT '',
    "expected" TEXT,

    CONSTRAINT "IntegrationLogEntry_pkey" PRIMARY KEY ("seq")
);

-- CreateTable
CREATE TABLE "OrderStatusChange" (
    "id" TEXT NOT NULL,
    "orderId" TEXT NOT NULL,
    "from" TEXT,
    "to" TEXT NOT NULL,
    "source" TEXT NOT NULL,
    "note" TEXT NOT NULL DEFAULT '',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "OrderStatusChange_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "ServiceNotification_dedupeKey_key" ON "ServiceNotification"("dedupeKey");

-- CreateIndex
CREATE INDEX "ServiceNotification_cartId_orderId_idx" ON "ServiceNotification"("cartId", "orderId");

-- CreateIndex
CREATE INDEX "ServiceNotification_serviceOrderId_idx" ON "ServiceNotification"("serviceOrderId");

-- CreateIndex
CREATE INDEX "ServiceNotification_orderId_idx" ON "ServiceNotification"("orderId");

-- CreateIndex
CREATE INDEX "ServiceNotification_notificationId_idx" ON "ServiceNotification"("notificationId");

-- CreateIndex
CREATE INDEX "ServiceNotification_outcome_receivedAt_idx" ON "ServiceNotification"("outcome", "receivedAt");

-- CreateIndex
CREATE UNIQUE INDEX "TradeInRegistration_orderId_key" ON "TradeInRegistration"("orderId");

-- CreateIndex
CREATE INDEX "TradeInRegistration_status_nextAttemptAt_idx" ON "TradeInRegistration"("status", "nextAttemptAt");

-- CreateIndex
CREATE INDEX "IntegrationLogEntry_key_seq_idx" ON "IntegrationLogEntry"("key", "seq");

-- CreateIndex
CREATE INDEX "IntegrationLogEntry_at_idx" ON "IntegrationLogEntry"("at");

-- CreateIndex
CREATE INDEX "OrderStatusChange_orderId_createdAt_idx" ON "OrderStatusChange"("orderId", "createdAt");

