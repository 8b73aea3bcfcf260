-- AlterTable
ALTER TABLE "Order" ADD COLUMN     "discountTotal" INTEGER NOT NULL DEFAULT 0;

-- CreateTable
CREATE TABLE "PromotionCode" (
    "code" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "percent" INTEGER,
    "amount" INTEGER,
    "currency" TEXT,
    "minimum" INTEGER,
    "expiresAt" TIMESTAMP(3),

    CONSTRAINT "PromotionCode_pkey" PRIMARY KEY ("code")
);

-- CreateTable
CREATE TABLE "CartPromotion" (
    "cartId" TEXT NOT NULL,
    "code" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "CartPromotion_pkey" PRIMARY KEY ("cartId","code")
);

-- CreateTable
CREATE TABLE "OrderDiscount" (
    "id" TEXT NOT NULL,
    "orderId" TEXT NOT NULL,
    "code" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "total" INTEGER NOT NULL,

    CONSTRAINT "OrderDiscount_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "OrderDiscount_orderId_idx" ON "OrderDiscount"("orderId");

-- AddForeignKey
ALTER TABLE "CartPromotion" ADD CONSTRAINT "CartPromotion_cartId_fkey" FOREIGN KEY ("cartId") REFERENCES "Cart"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "CartPromotion" ADD CONSTRAINT "CartPromotion_code_fkey" FOREIGN KEY ("code") REFERENCES "PromotionCode"("code") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "OrderDiscount" ADD CONSTRAINT "OrderDiscount_orderId_fkey" FOREIGN KEY ("orderId") REFERENCES "Order"("id") ON DELETE CASCADE ON UPDATE CASCADE;

