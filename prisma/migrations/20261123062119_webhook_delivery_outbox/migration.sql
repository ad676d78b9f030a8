-- fleetops migration webhook_delivery_outbox

-- DropIndex
DROP INDEX "WebhookDelivery_companyId_formId_attemptedAt_idx";

-- AlterTable
ALTER TABLE "WebhookDelivery" DROP COLUMN "url",
ADD COLUMN     "channel" TEXT NOT NULL DEFAULT 'webhook',
ADD COLUMN     "claimedAt" TIMESTAMPTZ(3),
ADD COLUMN     "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
ADD COLUMN     "messageId" TEXT NOT NULL,
ADD COLUMN     "status" TEXT NOT NULL DEFAULT 'pending',
ADD COLUMN     "target" TEXT NOT NULL,
ALTER COLUMN "attemptedAt" DROP NOT NULL,
ALTER COLUMN "attemptedAt" DROP DEFAULT;

-- CreateIndex
CREATE INDEX "WebhookDelivery_companyId_formId_createdAt_uid_idx" ON "WebhookDelivery"("companyId", "formId", "createdAt" DESC, "uid" DESC);

-- CreateIndex
CREATE INDEX "WebhookDelivery_status_createdAt_idx" ON "WebhookDelivery"("status", "createdAt");
