CREATE TABLE "failed_attempts" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"limiter" text NOT NULL,
	"key_digest" text NOT NULL,
	"failed_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "failed_attempts_key_idx" ON "failed_attempts" USING btree ("limiter","key_digest","failed_at");--> statement-breakpoint
CREATE INDEX "failed_attempts_age_idx" ON "failed_attempts" USING btree ("limiter","failed_at");