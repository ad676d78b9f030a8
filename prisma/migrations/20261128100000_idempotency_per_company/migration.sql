-- fleetops migration idempotency_per_company

-- A stored first response is per company and Idempotency-Key again (docs/contract/gaps.md §11), not per API key:
-- a client that retries with another key of the company (a rotated key) gets the first answer, and the write is
-- not made twice. The key's scope is decided before a record is looked at (docs/decisions/0006), so a read key
-- still gets its own 403. Where two keys of a company used the same Idempotency-Key, the newer record is kept.
DELETE FROM "IdempotencyKey" AS a
USING "IdempotencyKey" AS b
WHERE a."companyId" = b."companyId" AND a."key" = b."key"
  AND (a."createdAt", a."apiKeyId") < (b."createdAt", b."apiKeyId");

-- AlterTable
ALTER TABLE "IdempotencyKey" DROP CONSTRAINT "IdempotencyKey_pkey",
ADD CONSTRAINT "IdempotencyKey_pkey" PRIMARY KEY ("companyId", "key");
