ALTER TABLE "email_versions" ADD COLUMN "save_count" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "email_versions" ADD COLUMN "first_saved_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "emails" ADD COLUMN "open_version_id" bigint;--> statement-breakpoint
ALTER TABLE "emails" ADD COLUMN "open_version_saved_at" timestamp (3) with time zone;