-- DropIndex
DROP INDEX "ServiceNotification_outcome_idx";

-- CreateIndex
CREATE INDEX "OrderItem_orderId_idx" ON "OrderItem"("orderId");

-- CreateIndex
CREATE INDEX "ServiceNotification_outcome_receivedAt_idx" ON "ServiceNotification"("outcome", "receivedAt");

