-- fleetops migration idempotency_per_operation

-- Stored first responses were per company and request (method, path, body); they are now per company, API key
-- and operation. The records are a 24-hour replay cache, so those made before this migration are dropped.
DELETE FROM "IdempotencyKey";

-- AlterTable
ALTER TABLE "IdempotencyKey" DROP CONSTRAINT "IdempotencyKey_pkey",
DROP COLUMN "body",
DROP COLUMN "contentType",
DROP COLUMN "status",
ADD COLUMN     "apiKeyId" TEXT NOT NULL,
ADD COLUMN     "result" TEXT,
ADD CONSTRAINT "IdempotencyKey_pkey" PRIMARY KEY ("companyId", "apiKeyId", "key");
