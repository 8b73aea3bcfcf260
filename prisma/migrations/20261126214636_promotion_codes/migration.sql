-- CreateTable
CREATE TABLE "PromotionCode" (
    "code" TEXT NOT NULL PRIMARY KEY,
    "name" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "percent" INTEGER,
    "amount" INTEGER,
    "currency" TEXT,
    "minimum" INTEGER,
    "expiresAt" DATETIME
);

-- CreateTable
CREATE TABLE "CartPromotion" (
    "cartId" TEXT NOT NULL,
    "code" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,

    PRIMARY KEY ("cartId", "code"),
    CONSTRAINT "CartPromotion_cartId_fkey" FOREIGN KEY ("cartId") REFERENCES "Cart" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "CartPromotion_code_fkey" FOREIGN KEY ("code") REFERENCES "PromotionCode" ("code") ON DELETE RESTRICT ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "OrderDiscount" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "orderId" TEXT NOT NULL,
    "code" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "total" INTEGER NOT NULL,
    CONSTRAINT "OrderDiscount_orderId_fkey" FOREIGN KEY ("orderId") REFERENCES "Order" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_Order" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "number" TEXT NOT NULL,
    "cartId" TEXT NOT NULL,
    "sessionId" TEXT NOT NULL,
    "customerId" TEXT,
    "email" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "paymentMethod" TEXT NOT NULL,
    "shippingMethod" TEXT NOT NULL,
    "currency" TEXT NOT NULL,
    "price" INTEGER NOT NULL,
    "tax" INTEGER NOT NULL,
    "shippingPrice" INTEGER NOT NULL,
    "discountTotal" INTEGER NOT NULL DEFAULT 0,
    "tradeInDiscount" INTEGER NOT NULL DEFAULT 0,
    "total" INTEGER NOT NULL,
    "serviceOrderId" TEXT,
    "tradeInStatus" TEXT,
    "tradeInMessage" TEXT,
    "valuationState" TEXT,
    "valuationItemId" TEXT,
    "valuationValue" INTEGER,
    "valuationCurrency" TEXT,
    "valuationNote" TEXT,
    "billingAddressId" TEXT NOT NULL,
    "shippingAddressId" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "Order_customerId_fkey" FOREIGN KEY ("customerId") REFERENCES "Customer" ("id") ON DELETE SET NULL ON UPDATE CASCADE,
    CONSTRAINT "Order_billingAddressId_fkey" FOREIGN KEY ("billingAddressId") REFERENCES "Address" ("id") ON DELETE RESTRICT ON UPDATE CASCADE,
    CONSTRAINT "Order_shippingAddressId_fkey" FOREIGN KEY ("shippingAddressId") REFERENCES "Address" ("id") ON DELETE RESTRICT ON UPDATE CASCADE
);
INSERT INTO "new_Order" ("billingAddressId", "cartId", "createdAt", "currency", "customerId", "email", "id", "number", "paymentMethod", "price", "serviceOrderId", "sessionId", "shippingAddressId", "shippingMethod", "shippingPrice", "status", "tax", "total", "tradeInDiscount", "tradeInMessage", "tradeInStatus", "updatedAt", "valuationCurrency", "valuationItemId", "valuationNote", "valuationState", "valuationValue") SELECT "billingAddressId", "cartId", "createdAt", "currency", "customerId", "email", "id", "number", "paymentMethod", "price", "serviceOrderId", "sessionId", "shippingAddressId", "shippingMethod", "shippingPrice", "status", "tax", "total", "tradeInDiscount", "tradeInMessage", "tradeInStatus", "updatedAt", "valuationCurrency", "valuationItemId", "valuationNote", "valuationState", "valuationValue" FROM "Order";
DROP TABLE "Order";
ALTER TABLE "new_Order" RENAME TO "Order";
CREATE UNIQUE INDEX "Order_number_key" ON "Order"("number");
CREATE UNIQUE INDEX "Order_cartId_key" ON "Order"("cartId");
CREATE UNIQUE INDEX "Order_serviceOrderId_key" ON "Order"("serviceOrderId");
CREATE UNIQUE INDEX "Order_billingAddressId_key" ON "Order"("billingAddressId");
CREATE UNIQUE INDEX "Order_shippingAddressId_key" ON "Order"("shippingAddressId");
CREATE INDEX "Order_sessionId_createdAt_idx" ON "Order"("sessionId", "createdAt");
CREATE INDEX "Order_status_idx" ON "Order"("status");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- CreateIndex
CREATE INDEX "OrderDiscount_orderId_idx" ON "OrderDiscount"("orderId");

