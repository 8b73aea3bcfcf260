-- AlterTable
ALTER TABLE "Order" ADD COLUMN "valuationCurrency" TEXT;
ALTER TABLE "Order" ADD COLUMN "valuationItemId" TEXT;
ALTER TABLE "Order" ADD COLUMN "valuationNote" TEXT;
ALTER TABLE "Order" ADD COLUMN "valuationState" TEXT;
ALTER TABLE "Order" ADD COLUMN "valuationValue" INTEGER;

-- AlterTable
ALTER TABLE "ServiceCheckout" ADD COLUMN "valuationCurrency" TEXT;
ALTER TABLE "ServiceCheckout" ADD COLUMN "valuationItemId" TEXT;
ALTER TABLE "ServiceCheckout" ADD COLUMN "valuationNote" TEXT;
ALTER TABLE "ServiceCheckout" ADD COLUMN "valuationState" TEXT;
ALTER TABLE "ServiceCheckout" ADD COLUMN "valuationValue" INTEGER;

