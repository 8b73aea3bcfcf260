-- CreateIndex
CREATE INDEX "Cart_customerId_checkedOutAt_updatedAt_idx" ON "Cart"("customerId", "checkedOutAt", "updatedAt");

