CREATE TABLE "render_source_versions" (
	"scope" text NOT NULL,
	"key" integer NOT NULL,
	"version" bigint DEFAULT 1 NOT NULL,
	CONSTRAINT "render_source_versions_scope_key_pk" PRIMARY KEY("scope","key")
);
--> statement-breakpoint
-- Every change to what a render reads (a design system, its components and brand profiles, a
-- workspace's dynamic content) counts up the system's or the workspace's row above and is
-- announced on the channel letterset_render_sources, whichever code wrote it (a route, a job, the
-- cascade of a delete). The announcement goes out when the writing transaction commits; its
-- payload names the design system ("email_design_system:<id>") or the workspace ("workspace:<id>").
CREATE OR REPLACE FUNCTION letterset_announce_render_source_change() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  changed_scope text := TG_ARGV[0];
  key_column text := TG_ARGV[1];
  keys integer[] := '{}';
  changed_key integer;
BEGIN
  IF TG_OP <> 'INSERT' THEN
    keys := keys || (to_jsonb(OLD) ->> key_column)::integer;
  END IF;
  IF TG_OP <> 'DELETE' THEN
    keys := keys || (to_jsonb(NEW) ->> key_column)::integer;
  END IF;
  FOR changed_key IN SELECT DISTINCT unnest(keys) LOOP
    INSERT INTO render_source_versions AS versions (scope, key) VALUES (changed_scope, changed_key)
      ON CONFLICT (scope, key) DO UPDATE SET version = versions.version + 1;
    PERFORM pg_notify('letterset_render_sources', changed_scope || ':' || changed_key);
  END LOOP;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "email_design_systems_render_source" AFTER INSERT OR UPDATE OR DELETE ON "email_design_systems"
  FOR EACH ROW EXECUTE FUNCTION letterset_announce_render_source_change('email_design_system', 'id');
--> statement-breakpoint
CREATE TRIGGER "components_render_source" AFTER INSERT OR UPDATE OR DELETE ON "components"
  FOR EACH ROW EXECUTE FUNCTION letterset_announce_render_source_change('email_design_system', 'email_design_system_id');
--> statement-breakpoint
CREATE TRIGGER "brand_profiles_render_source" AFTER INSERT OR UPDATE OR DELETE ON "brand_profiles"
  FOR EACH ROW EXECUTE FUNCTION letterset_announce_render_source_change('email_design_system', 'email_design_system_id');
--> statement-breakpoint
CREATE TRIGGER "dynamic_content_profiles_render_source" AFTER INSERT OR UPDATE OR DELETE ON "dynamic_content_profiles"
  FOR EACH ROW EXECUTE FUNCTION letterset_announce_render_source_change('workspace', 'workspace_id');
--> statement-breakpoint
CREATE TRIGGER "conditionals_render_source" AFTER INSERT OR UPDATE OR DELETE ON "conditionals"
  FOR EACH ROW EXECUTE FUNCTION letterset_announce_render_source_change('workspace', 'workspace_id');
--> statement-breakpoint
CREATE TRIGGER "personalization_tags_render_source" AFTER INSERT OR UPDATE OR DELETE ON "personalization_tags"
  FOR EACH ROW EXECUTE FUNCTION letterset_announce_render_source_change('workspace', 'workspace_id');
--> statement-breakpoint
CREATE TRIGGER "link_tracking_profiles_render_source" AFTER INSERT OR UPDATE OR DELETE ON "link_tracking_profiles"
  FOR EACH ROW EXECUTE FUNCTION letterset_announce_render_source_change('workspace', 'workspace_id');
