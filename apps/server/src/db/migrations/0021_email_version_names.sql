ALTER TABLE "email_versions" ADD COLUMN "name" text;--> statement-breakpoint
ALTER TABLE "email_versions" ADD COLUMN "restored_from_version_id" text;