-- AlterTable
ALTER TABLE "Order" ADD COLUMN     "valuationCurrency" TEXT,
ADD COLUMN     "valuationItemId" TEXT,
ADD COLUMN     "valuationNote" TEXT,
ADD COLUMN     "valuationState" TEXT,
ADD COLUMN     "valuationValue" INTEGER;

-- AlterTable
ALTER TABLE "ServiceCheckout" ADD COLUMN     "valuationCurrency" TEXT,
ADD COLUMN     "valuationItemId" TEXT,
ADD COLUMN     "valuationNote" TEXT,
ADD COLUMN     "valuationState" TEXT,
ADD COLUMN     "valuationValue" INTEGER;

