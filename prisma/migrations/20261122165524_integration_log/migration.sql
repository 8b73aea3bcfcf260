-- CreateTable
CREATE TABLE "IntegrationLogEntry" (
    "seq" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "key" TEXT NOT NULL,
    "at" DATETIME NOT NULL,
    "kind" TEXT NOT NULL,
    "label" TEXT NOT NULL,
    "status" INTEGER,
    "ok" BOOLEAN NOT NULL,
    "durationMs" INTEGER,
    "detail" TEXT NOT NULL DEFAULT ''
);

-- CreateIndex
CREATE INDEX "IntegrationLogEntry_key_seq_idx" ON "IntegrationLogEntry"("key", "seq");

-- CreateIndex
CREATE INDEX "IntegrationLogEntry_at_idx" ON "IntegrationLogEntry"("at");

