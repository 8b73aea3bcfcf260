-- AlterTable
ALTER TABLE "ServiceCheckout" ADD COLUMN "askedAmount" INTEGER;
ALTER TABLE "ServiceCheckout" ADD COLUMN "askedCurrency" TEXT;

