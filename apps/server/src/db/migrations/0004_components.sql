CREATE TABLE "component_versions" (
	"id" serial PRIMARY KEY NOT NULL,
	"component_id" integer NOT NULL,
	"version_id" text NOT NULL,
	"component_data" jsonb NOT NULL,
	"last_updated_by_id" integer,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "components" (
	"id" serial PRIMARY KEY NOT NULL,
	"organization_id" integer NOT NULL,
	"email_design_system_id" integer NOT NULL,
	"name" text NOT NULL,
	"label" text NOT NULL,
	"description" text,
	"container" boolean DEFAULT false NOT NULL,
	"template" text NOT NULL,
	"field_definitions" jsonb NOT NULL,
	"position" integer,
	"deprecated" boolean DEFAULT false NOT NULL,
	"feed_id" integer,
	"screenshot_url" text,
	"last_updated_by_id" integer,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "component_versions" ADD CONSTRAINT "component_versions_component_id_components_id_fk" FOREIGN KEY ("component_id") REFERENCES "public"."components"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "component_versions" ADD CONSTRAINT "component_versions_last_updated_by_id_users_id_fk" FOREIGN KEY ("last_updated_by_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "components" ADD CONSTRAINT "components_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "components" ADD CONSTRAINT "components_email_design_system_id_email_design_systems_id_fk" FOREIGN KEY ("email_design_system_id") REFERENCES "public"."email_design_systems"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "components" ADD CONSTRAINT "components_last_updated_by_id_users_id_fk" FOREIGN KEY ("last_updated_by_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "component_versions_component_idx" ON "component_versions" USING btree ("component_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "components_system_name_unique" ON "components" USING btree ("email_design_system_id","name");--> statement-breakpoint
CREATE UNIQUE INDEX "components_one_container_per_system" ON "components" USING btree ("email_design_system_id") WHERE "components"."container";