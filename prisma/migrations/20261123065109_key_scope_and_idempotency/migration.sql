-- fleetops migration key_scope_and_idempotency

-- AlterTable
ALTER TABLE "ApiKey" ADD COLUMN     "scope" TEXT NOT NULL DEFAULT 'read_write';

-- CreateTable
CREATE TABLE "IdempotencyKey" (
    "companyId" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "requestHash" TEXT NOT NULL,
    "state" TEXT NOT NULL DEFAULT 'running',
    "status" INTEGER,
    "body" TEXT,
    "contentType" TEXT,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expiresAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "IdempotencyKey_pkey" PRIMARY KEY ("companyId","key")
);

-- CreateIndex
CREATE INDEX "IdempotencyKey_expiresAt_idx" ON "IdempotencyKey"("expiresAt");
