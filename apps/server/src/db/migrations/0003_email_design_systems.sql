CREATE TABLE "email_design_systems" (
	"id" serial PRIMARY KEY NOT NULL,
	"organization_id" integer NOT NULL,
	"workspace_id" integer NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"access_scope" text NOT NULL,
	"require_brand_profile_for_use" boolean DEFAULT false NOT NULL,
	"archived" boolean DEFAULT false NOT NULL,
	"design_tokens" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"custom_styles" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"screenshot_url" text,
	"created_by_id" integer,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "email_design_systems" ADD CONSTRAINT "email_design_systems_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "email_design_systems" ADD CONSTRAINT "email_design_systems_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "email_design_systems" ADD CONSTRAINT "email_design_systems_created_by_id_users_id_fk" FOREIGN KEY ("created_by_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "email_design_systems_workspace_idx" ON "email_design_systems" USING btree ("workspace_id");--> statement-breakpoint
CREATE INDEX "email_design_systems_organization_scope_idx" ON "email_design_systems" USING btree ("organization_id","access_scope");