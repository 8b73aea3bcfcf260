ALTER TABLE "carts" ADD COLUMN "customer_id" text;--> statement-breakpoint
ALTER TABLE "carts" ADD COLUMN "updated_at" timestamp with time zone DEFAULT now() NOT NULL;