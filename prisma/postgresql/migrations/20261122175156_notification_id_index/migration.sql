-- CreateIndex
CREATE INDEX "ServiceNotification_notificationId_idx" ON "ServiceNotification"("notificationId");

