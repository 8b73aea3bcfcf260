-- CreateTable
CREATE TABLE "IntegrationLogEntry" (
    "seq" SERIAL NOT NULL,
    "key" TEXT NOT NULL,
    "at" TIMESTAMP(3) NOT NULL,
    "kind" TEXT NOT NULL,
    "label" TEXT NOT NULL,
    "status" INTEGER,
    "ok" BOOLEAN NOT NULL,
    "durationMs" INTEGER,
    "detail" TEXT NOT NULL DEFAULT '',

    CONSTRAINT "IntegrationLogEntry_pkey" PRIMARY KEY ("seq")
);

-- CreateIndex
CREATE INDEX "IntegrationLogEntry_key_seq_idx" ON "IntegrationLogEntry"("key", "seq");

-- CreateIndex
CREATE INDEX "IntegrationLogEntry_at_idx" ON "IntegrationLogEntry"("at");

