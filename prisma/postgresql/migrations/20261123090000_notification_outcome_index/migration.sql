-- CreateIndex
CREATE INDEX "ServiceNotification_outcome_idx" ON "ServiceNotification"("outcome");
