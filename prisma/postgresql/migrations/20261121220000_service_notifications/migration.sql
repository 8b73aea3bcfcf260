-- CreateTable
CREATE TABLE "ServiceCheckout" (
    "cartId" TEXT NOT NULL,
    "sessionId" TEXT NOT NULL,
    "customerId" TEXT,
    "email" TEXT NOT NULL,
    "billing" TEXT NOT NULL,
    "shipping" TEXT NOT NULL,
    "shippingMethod" TEXT NOT NULL,
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

-- CreateIndex
CREATE UNIQUE INDEX "ServiceNotification_dedupeKey_key" ON "ServiceNotification"("dedupeKey");

-- CreateIndex
CREATE INDEX "ServiceNotification_cartId_orderId_idx" ON "ServiceNotification"("cartId", "orderId");

-- CreateIndex
CREATE INDEX "ServiceNotification_serviceOrderId_idx" ON "ServiceNotification"("serviceOrderId");

-- CreateIndex
CREATE INDEX "ServiceNotification_orderId_idx" ON "ServiceNotification"("orderId");

