ALTER TABLE "conditionals" ADD COLUMN "default_branch_key" text;--> statement-breakpoint
ALTER TABLE "exports" ADD COLUMN "delivered_resources" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "review_approvals" ADD COLUMN "pre_send_warnings" jsonb DEFAULT '[]'::jsonb NOT NULL;