-- AlterTable
ALTER TABLE "TradeInRegistration" ADD COLUMN     "unreachable" BOOLEAN NOT NULL DEFAULT false;

