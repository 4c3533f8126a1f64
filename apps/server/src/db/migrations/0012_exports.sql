CREATE TABLE "exports" (
	"id" serial PRIMARY KEY NOT NULL,
	"organization_id" integer NOT NULL,
	"workspace_id" integer NOT NULL,
	"email_id" integer NOT NULL,
	"email_name" text NOT NULL,
	"email_status" text NOT NULL,
	"created_by_id" integer,
	"export_type" text NOT NULL,
	"status" text DEFAULT 'in_progress' NOT NULL,
	"connector_id" integer,
	"integration_name" text,
	"dynamic_content_profile_id" text,
	"options" jsonb NOT NULL,
	"metadata" jsonb NOT NULL,
	"export_errors" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"warnings" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"locales_done" integer DEFAULT 0 NOT NULL,
	"locales_total" integer NOT NULL,
	"job_id" text,
	"file_key" text,
	"open_in_integration_url" text,
	"completed_at" timestamp (3) with time zone,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "exports" ADD CONSTRAINT "exports_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exports" ADD CONSTRAINT "exports_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exports" ADD CONSTRAINT "exports_email_id_emails_id_fk" FOREIGN KEY ("email_id") REFERENCES "public"."emails"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exports" ADD CONSTRAINT "exports_created_by_id_users_id_fk" FOREIGN KEY ("created_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "exports_workspace_created_idx" ON "exports" USING btree ("workspace_id","created_at");--> statement-breakpoint
CREATE INDEX "exports_email_idx" ON "exports" USING btree ("email_id");