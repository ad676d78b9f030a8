-- fleetops migration maintenance_alerts (gaps.md §14)

-- AlterTable
ALTER TABLE "CompanySettings" ADD COLUMN "alerts" JSONB;

-- AlterTable: one outbox for submissions and maintenance alerts
ALTER TABLE "WebhookDelivery" ALTER COLUMN "formId" DROP NOT NULL,
    ALTER COLUMN "completionId" DROP NOT NULL,
    ADD COLUMN "alertId" TEXT,
    ADD COLUMN "attempt" INTEGER NOT NULL DEFAULT 1,
    ADD COLUMN "nextAttemptAt" TIMESTAMPTZ(3);

-- CreateIndex
CREATE INDEX "WebhookDelivery_companyId_alertId_createdAt_uid_idx" ON "WebhookDelivery"("companyId", "alertId", "createdAt" DESC, "uid" DESC);

-- CreateTable
CREATE TABLE "MaintenanceAlert" (
    "companyId" TEXT NOT NULL,
    "uid" TEXT NOT NULL,
    "scheduleItemId" TEXT NOT NULL,
    "event" TEXT NOT NULL,
    "cycle" TEXT NOT NULL,
    "notified" BOOLEAN NOT NULL DEFAULT true,
    "payload" JSONB NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "MaintenanceAlert_pkey" PRIMARY KEY ("companyId","uid")
);

-- CreateIndex
CREATE UNIQUE INDEX "MaintenanceAlert_companyId_scheduleItemId_event_cycle_key" ON "MaintenanceAlert"("companyId", "scheduleItemId", "event", "cycle");

-- CreateIndex
CREATE INDEX "MaintenanceAlert_companyId_createdAt_uid_idx" ON "MaintenanceAlert"("companyId", "createdAt" DESC, "uid" DESC);
