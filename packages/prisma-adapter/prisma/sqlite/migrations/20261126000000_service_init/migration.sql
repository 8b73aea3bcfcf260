-- CreateTable
CREATE TABLE "ServiceToken" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "accessToken" TEXT NOT NULL,
    "refreshToken" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "merchantId" TEXT NOT NULL,
    "scope" TEXT NOT NULL,
    "accessExpiresAt" DATETIME NOT NULL,
    "updatedAt" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "ServiceCheckout" (
    "cartId" TEXT NOT NULL PRIMARY KEY,
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
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "ServiceNotification" (
    "id" TEXT NOT NULL PRIMARY KEY,
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
    "receivedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "appliedAt" DATETIME
);

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
    "unreachable" BOOLEAN NOT NULL DEFAULT false,
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

-- CreateTable
CREATE TABLE "Lease" (
    "name" TEXT NOT NULL PRIMARY KEY,
    "holder" TEXT NOT NULL,
    "expiresAt" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "IntegrationLogEntry" (
    "seq" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "key" TEXT NOT NULL,
    "at" DATETIME NOT NULL,
    "kind" TEXT NOT NULL,
    "label" TEXT NOT NULL,
    "status" INTEGER,
    "ok" BOOLEAN NOT NULL,
    "durationMs" INTEGER,
    "detail" TEXT NOT NULL DEFAULT '',
    "expected" TEXT
);

-- CreateTable
CREATE TABLE "OrderStatusChange" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "orderId" TEXT NOT NULL,
    "from" TEXT,
    "to" TEXT NOT NULL,
    "source" TEXT NOT NULL,
    "note" TEXT NOT NULL DEFAULT '',
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
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

