CREATE TABLE "account" (
	"id" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"provider_id" text NOT NULL,
	"user_id" text NOT NULL,
	"access_token" text,
	"refresh_token" text,
	"id_token" text,
	"access_token_expires_at" timestamp,
	"refresh_token_expires_at" timestamp,
	"scope" text,
	"password" text,
	"created_at" timestamp DEFAULT now() NOT NULL,
	"updated_at" timestamp DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "card_payments" (
	"id" text PRIMARY KEY NOT NULL,
	"session_id" text NOT NULL,
	"amount" integer NOT NULL,
	"currency" text NOT NULL,
	"order_id" text,
	"created_at" timestamp DEFAULT now() NOT NULL,
	CONSTRAINT "card_payments_order_id_unique" UNIQUE("order_id")
);
--> statement-breakpoint
CREATE TABLE "cart_lines" (
	"cart_id" text NOT NULL,
	"product_id" text NOT NULL,
	"quantity" integer NOT NULL,
	CONSTRAINT "cart_lines_cart_id_product_id_pk" PRIMARY KEY("cart_id","product_id")
);
--> statement-breakpoint
CREATE TABLE "carts" (
	"id" text PRIMARY KEY NOT NULL,
	"session_id" text NOT NULL,
	"open_session_id" text,
	CONSTRAINT "carts_open_session_id_unique" UNIQUE("open_session_id")
);
--> statement-breakpoint
CREATE TABLE "order_lines" (
	"order_id" text NOT NULL,
	"product_id" text NOT NULL,
	"name" text NOT NULL,
	"description" text NOT NULL,
	"url" text NOT NULL,
	"quantity" integer NOT NULL,
	"price" integer NOT NULL,
	"tax" integer NOT NULL,
	CONSTRAINT "order_lines_order_id_product_id_pk" PRIMARY KEY("order_id","product_id")
);
--> statement-breakpoint
CREATE TABLE "orders" (
	"id" text PRIMARY KEY NOT NULL,
	"number" text NOT NULL,
	"email" text NOT NULL,
	"details" text NOT NULL,
	"cart_id" text NOT NULL,
	"service_order_id" text,
	"session_id" text NOT NULL,
	"customer_id" text,
	"status" text NOT NULL,
	"payment_method" text NOT NULL,
	"currency" text NOT NULL,
	"price" integer NOT NULL,
	"tax" integer NOT NULL,
	"shipping_price" integer NOT NULL,
	"discount_total" integer DEFAULT 0 NOT NULL,
	"trade_in_discount" integer DEFAULT 0 NOT NULL,
	"total" integer NOT NULL,
	"trade_in_status" text,
	"trade_in_message" text,
	"valuation_state" text,
	"valuation_item_id" text,
	"valuation_value" integer,
	"valuation_currency" text,
	"valuation_note" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "orders_number_unique" UNIQUE("number"),
	CONSTRAINT "orders_cart_id_unique" UNIQUE("cart_id"),
	CONSTRAINT "orders_service_order_id_unique" UNIQUE("service_order_id")
);
--> statement-breakpoint
CREATE TABLE "products" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"description" text NOT NULL,
	"price" integer NOT NULL,
	"tax" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "session" (
	"id" text PRIMARY KEY NOT NULL,
	"expires_at" timestamp NOT NULL,
	"token" text NOT NULL,
	"created_at" timestamp DEFAULT now() NOT NULL,
	"updated_at" timestamp DEFAULT now() NOT NULL,
	"ip_address" text,
	"user_agent" text,
	"user_id" text NOT NULL,
	CONSTRAINT "session_token_unique" UNIQUE("token")
);
--> statement-breakpoint
CREATE TABLE "user" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"email" text NOT NULL,
	"email_verified" boolean DEFAULT false NOT NULL,
	"image" text,
	"created_at" timestamp DEFAULT now() NOT NULL,
	"updated_at" timestamp DEFAULT now() NOT NULL,
	CONSTRAINT "user_email_unique" UNIQUE("email")
);
--> statement-breakpoint
CREATE TABLE "verification" (
	"id" text PRIMARY KEY NOT NULL,
	"identifier" text NOT NULL,
	"value" text NOT NULL,
	"expires_at" timestamp NOT NULL,
	"created_at" timestamp DEFAULT now() NOT NULL,
	"updated_at" timestamp DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "service_checkouts" (
	"cart_id" text PRIMARY KEY NOT NULL,
	"session_id" text NOT NULL,
	"customer_id" text,
	"email" text NOT NULL,
	"billing" text NOT NULL,
	"shipping" text NOT NULL,
	"shipping_method" text NOT NULL,
	"valuation_state" text,
	"valuation_item_id" text,
	"valuation_value" integer,
	"valuation_currency" text,
	"valuation_note" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "service_integration_log" (
	"seq" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "service_integration_log_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"key" text NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"kind" text NOT NULL,
	"label" text NOT NULL,
	"status" integer,
	"ok" boolean NOT NULL,
	"duration_ms" integer,
	"detail" text DEFAULT '' NOT NULL,
	"expected" text
);
--> statement-breakpoint
CREATE TABLE "service_leases" (
	"name" text PRIMARY KEY NOT NULL,
	"holder" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "service_notifications" (
	"id" text PRIMARY KEY NOT NULL,
	"dedupe_key" text NOT NULL,
	"notification_id" text,
	"event" text,
	"service_order_id" text,
	"cart_id" text,
	"status" text NOT NULL,
	"amount" integer,
	"currency" text,
	"trade_in_discount" integer,
	"customer_id" text,
	"form" text NOT NULL,
	"body" text NOT NULL,
	"outcome" text DEFAULT 'early' NOT NULL,
	"order_id" text,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	"applied_at" timestamp with time zone,
	CONSTRAINT "service_notifications_dedupe_key_unique" UNIQUE("dedupe_key")
);
--> statement-breakpoint
CREATE TABLE "service_order_history" (
	"seq" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "service_order_history_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"order_id" text NOT NULL,
	"from_status" text,
	"to_status" text NOT NULL,
	"source" text NOT NULL,
	"note" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "service_session_trade_ins" (
	"session_id" text PRIMARY KEY NOT NULL,
	"trade_in_id" text NOT NULL,
	"seen_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "service_tokens" (
	"id" text PRIMARY KEY NOT NULL,
	"access_token" text NOT NULL,
	"refresh_token" text NOT NULL,
	"user_id" text NOT NULL,
	"merchant_id" text NOT NULL,
	"scope" text NOT NULL,
	"access_expires_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "service_trade_in_registrations" (
	"id" text PRIMARY KEY NOT NULL,
	"order_id" text NOT NULL,
	"session_hash" text NOT NULL,
	"cart" text NOT NULL,
	"order_amount" integer NOT NULL,
	"customer_id" text,
	"status" text NOT NULL,
	"precheck" boolean DEFAULT true NOT NULL,
	"reason" text DEFAULT '' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text DEFAULT '' NOT NULL,
	"unreachable" boolean DEFAULT false NOT NULL,
	"next_attempt_at" timestamp with time zone,
	"response" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "service_trade_in_registrations_order_id_unique" UNIQUE("order_id")
);
--> statement-breakpoint
ALTER TABLE "account" ADD CONSTRAINT "account_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "session" ADD CONSTRAINT "session_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "service_integration_log_key_idx" ON "service_integration_log" USING btree ("key","seq");--> statement-breakpoint
CREATE INDEX "service_integration_log_at_idx" ON "service_integration_log" USING btree ("at");--> statement-breakpoint
CREATE INDEX "service_notifications_cart_order_idx" ON "service_notifications" USING btree ("cart_id","order_id");--> statement-breakpoint
CREATE INDEX "service_notifications_service_order_idx" ON "service_notifications" USING btree ("service_order_id");--> statement-breakpoint
CREATE INDEX "service_notifications_order_idx" ON "service_notifications" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "service_notifications_notification_idx" ON "service_notifications" USING btree ("notification_id");--> statement-breakpoint
CREATE INDEX "service_notifications_outcome_received_idx" ON "service_notifications" USING btree ("outcome","received_at");--> statement-breakpoint
CREATE INDEX "service_order_history_order_idx" ON "service_order_history" USING btree ("order_id","seq");--> statement-breakpoint
CREATE INDEX "service_trade_in_registrations_due_idx" ON "service_trade_in_registrations" USING btree ("status","next_attempt_at");