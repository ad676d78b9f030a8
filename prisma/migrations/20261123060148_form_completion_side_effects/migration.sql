-- fleetops migration form_completion_side_effects

-- AlterTable
ALTER TABLE "FormCompletion" ADD COLUMN     "appBaseUrl" TEXT,
ADD COLUMN     "sideEffects" JSONB NOT NULL DEFAULT '{}';
