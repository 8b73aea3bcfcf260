ALTER TABLE "service_checkouts" ADD COLUMN "asked_amount" integer;--> statement-breakpoint
ALTER TABLE "service_checkouts" ADD COLUMN "asked_currency" text;