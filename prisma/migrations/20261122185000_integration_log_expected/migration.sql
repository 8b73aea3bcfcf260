-- AlterTable
ALTER TABLE "IntegrationLogEntry" ADD COLUMN "expected" TEXT;
