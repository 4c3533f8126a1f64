CREATE TABLE "limited_attempts" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"limiter" text NOT NULL,
	"source_digest" text NOT NULL,
	"subject_digest" text NOT NULL,
	"attempted_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
DROP TABLE "failed_attempts" CASCADE;--> statement-breakpoint
CREATE INDEX "limited_attempts_source_idx" ON "limited_attempts" USING btree ("limiter","source_digest","subject_digest","attempted_at");--> statement-breakpoint
CREATE INDEX "limited_attempts_age_idx" ON "limited_attempts" USING btree ("limiter","attempted_at");