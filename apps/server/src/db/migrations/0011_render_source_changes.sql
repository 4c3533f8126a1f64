-- Every change to what a render reads (a design system, its components and brand profiles, a
-- workspace's dynamic content) is announced on the channel letterset_render_sources, so that each
-- server process drops what it keeps of it. The NOTIFY goes out when the writing transaction
-- commits, whichever code wrote (a route, a job, a cascade of a delete). The payload names the
-- design system ("email_design_system:<id>") or the workspace ("workspace:<id>") affected.
CREATE OR REPLACE FUNCTION letterset_announce_render_source_change() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  scope text := TG_ARGV[0];
  key_column text := TG_ARGV[1];
BEGIN
  IF TG_OP <> 'INSERT' THEN
    PERFORM pg_notify('letterset_render_sources', scope || ':' || (to_jsonb(OLD) ->> key_column));
  END IF;
  IF TG_OP <> 'DELETE' THEN
    PERFORM pg_notify('letterset_render_sources', scope || ':' || (to_jsonb(NEW) ->> key_column));
  END IF;
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
