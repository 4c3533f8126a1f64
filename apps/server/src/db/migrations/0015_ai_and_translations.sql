CREATE TABLE "ai_agents" (
	"id" serial PRIMARY KEY NOT NULL,
	"organization_id" integer NOT NULL,
	"workspace_id" integer NOT NULL,
	"name" text,
	"company_name" text,
	"company_overview" text,
	"tone" text,
	"guidelines" text,
	"brand_guidelines_document_name" text,
	"brand_guidelines_storage_key" text,
	"brand_guidelines_text" text,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ai_usage" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"organization_id" integer NOT NULL,
	"user_id" integer,
	"feature" text NOT NULL,
	"model" text NOT NULL,
	"input_tokens" integer DEFAULT 0 NOT NULL,
	"output_tokens" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "email_translations" (
	"id" serial PRIMARY KEY NOT NULL,
	"organization_id" integer NOT NULL,
	"workspace_id" integer NOT NULL,
	"email_id" integer NOT NULL,
	"source_locale" text NOT NULL,
	"target_locales" jsonb NOT NULL,
	"locale_statuses" jsonb NOT NULL,
	"ai_agent_id" integer,
	"created_by_id" integer,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "organization_ai_settings" (
	"organization_id" integer PRIMARY KEY NOT NULL,
	"provider" text,
	"base_url" text,
	"model" text,
	"image_model" text,
	"sealed_api_key" text,
	"updated_by_id" integer,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "email_design_systems" ADD COLUMN "create_with_ai" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "email_design_systems" ADD COLUMN "prompt" text;--> statement-breakpoint
ALTER TABLE "email_design_systems" ADD COLUMN "ai_generation_status" text;--> statement-breakpoint
ALTER TABLE "email_design_systems" ADD COLUMN "ai_generation_error" text;--> statement-breakpoint
ALTER TABLE "email_versions" ADD COLUMN "ai_feature" text;--> statement-breakpoint
ALTER TABLE "emails" ADD COLUMN "ai_generation_status" text;--> statement-breakpoint
ALTER TABLE "emails" ADD COLUMN "ai_generation_error" text;--> statement-breakpoint
ALTER TABLE "review_assignments" ADD COLUMN "ai_review_status" text;--> statement-breakpoint
ALTER TABLE "review_assignments" ADD COLUMN "ai_review_error" text;--> statement-breakpoint
ALTER TABLE "ai_agents" ADD CONSTRAINT "ai_agents_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ai_agents" ADD CONSTRAINT "ai_agents_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ai_usage" ADD CONSTRAINT "ai_usage_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ai_usage" ADD CONSTRAINT "ai_usage_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "email_translations" ADD CONSTRAINT "email_translations_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "email_translations" ADD CONSTRAINT "email_translations_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "email_translations" ADD CONSTRAINT "email_translations_email_id_emails_id_fk" FOREIGN KEY ("email_id") REFERENCES "public"."emails"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "email_translations" ADD CONSTRAINT "email_translations_created_by_id_users_id_fk" FOREIGN KEY ("created_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "organization_ai_settings" ADD CONSTRAINT "organization_ai_settings_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "organization_ai_settings" ADD CONSTRAINT "organization_ai_settings_updated_by_id_users_id_fk" FOREIGN KEY ("updated_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "ai_agents_workspace_idx" ON "ai_agents" USING btree ("workspace_id");--> statement-breakpoint
CREATE INDEX "ai_usage_organization_created_idx" ON "ai_usage" USING btree ("organization_id","created_at");--> statement-breakpoint
CREATE INDEX "email_translations_email_idx" ON "email_translations" USING btree ("email_id","id");