-- AlterTable
ALTER TABLE "ServiceCheckout" ADD COLUMN     "askedAmount" INTEGER,
ADD COLUMN     "askedCurrency" TEXT;

