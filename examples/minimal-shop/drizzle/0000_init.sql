CREATE TABLE `cart_lines` (
	`cart_id` text NOT NULL,
	`product_id` text NOT NULL,
	`quantity` integer NOT NULL,
	PRIMARY KEY(`cart_id`, `product_id`)
);

--> statement-breakpoint
CREATE TABLE `carts` (
	`id` text PRIMARY KEY NOT NULL,
	`session_id` text NOT NULL,
	`open_session_id` text
);

--> statement-breakpoint
CREATE UNIQUE INDEX `carts_open_session_id_unique` ON `carts` (`open_session_id`);
--> statement-breakpoint
CREATE TABLE `customers` (
	`id` text PRIMARY KEY NOT NULL,
	`email` text NOT NULL,
	`given_name` text NOT NULL,
	`family_name` text NOT NULL,
	`password_hash` text NOT NULL
);

--> statement-breakpoint
CREATE UNIQUE INDEX `customers_email_unique` ON `customers` (`email`);
--> statement-breakpoint
CREATE TABLE `order_lines` (
	`order_id` text NOT NULL,
	`product_id` text NOT NULL,
	`name` text NOT NULL,
	`description` text NOT NULL,
	`url` text NOT NULL,
	`quantity` integer NOT NULL,
	`price` integer NOT NULL,
	`tax` integer NOT NULL,
	PRIMARY KEY(`order_id`, `product_id`)
);

--> statement-breakpoint
CREATE TABLE `orders` (
	`id` text PRIMARY KEY NOT NULL,
	`number` text NOT NULL,
	`email` text NOT NULL,
	`details` text NOT NULL,
	`cart_id` text NOT NULL,
	`service_order_id` text,
	`session_id` text NOT NULL,
	`customer_id` text,
	`status` text NOT NULL,
	`payment_method` text NOT NULL,
	`currency` text NOT NULL,
	`price` integer NOT NULL,
	`tax` integer NOT NULL,
	`shipping_price` integer NOT NULL,
	`discount_total` integer DEFAULT 0 NOT NULL,
	`trade_in_discount` integer DEFAULT 0 NOT NULL,
	`total` integer NOT NULL,
	`trade_in_status` text,
	`trade_in_message` text,
	`valuation_state` text,
	`valuation_item_id` text,
	`valuation_value` integer,
	`valuation_currency` text,
	`valuation_note` text,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL
);

--> statement-breakpoint
CREATE UNIQUE INDEX `orders_number_unique` ON `orders` (`number`);
--> statement-breakpoint
CREATE UNIQUE INDEX `orders_cart_id_unique` ON `orders` (`cart_id`);
--> statement-breakpoint
CREATE UNIQUE INDEX `orders_service_order_id_unique` ON `orders` (`service_order_id`);
--> statement-breakpoint
CREATE TABLE `products` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`description` text NOT NULL,
	`price` integer NOT NULL,
	`tax` integer NOT NULL
);

--> statement-breakpoint
CREATE TABLE `service_checkouts` (
	`cart_id` text PRIMARY KEY NOT NULL,
	`session_id` text NOT NULL,
	`customer_id` text,
	`email` text NOT NULL,
	`billing` text NOT NULL,
	`shipping` text NOT NULL,
	`shipping_method` text NOT NULL,
	`valuation_state` text,
	`valuation_item_id` text,
	`valuation_value` integer,
	`valuation_currency` text,
	`valuation_note` text,
	`asked_amount` integer,
	`asked_currency` text,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL
);

--> statement-breakpoint
CREATE TABLE `service_integration_log` (
	`seq` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`key` text NOT NULL,
	`at` integer NOT NULL,
	`kind` text NOT NULL,
	`label` text NOT NULL,
	`status` integer,
	`ok` integer NOT NULL,
	`duration_ms` integer,
	`detail` text DEFAULT '' NOT NULL,
	`expected` text
);

--> statement-breakpoint
CREATE INDEX `service_integration_log_key_idx` ON `service_integration_log` (`key`,`seq`);
--> statement-breakpoint
CREATE INDEX `service_integration_log_at_idx` ON `service_integration_log` (`at`);
--> statement-breakpoint
CREATE TABLE `service_leases` (
	`name` text PRIMARY KEY NOT NULL,
	`holder` text NOT NULL,
	`expires_at` integer NOT NULL
);

--> statement-breakpoint
CREATE TABLE `service_notifications` (
	`id` text PRIMARY KEY NOT NULL,
	`dedupe_key` text NOT NULL,
	`notification_id` text,
	`event` text,
	`service_order_id` text,
	`cart_id` text,
	`status` text NOT NULL,
	`amount` integer,
	`currency` text,
	`trade_in_discount` integer,
	`customer_id` text,
	`form` text NOT NULL,
	`body` text NOT NULL,
	`outcome` text DEFAULT 'early' NOT NULL,
	`order_id` text,
	`received_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`applied_at` integer
);

--> statement-breakpoint
CREATE UNIQUE INDEX `service_notifications_dedupe_key_unique` ON `service_notifications` (`dedupe_key`);
--> statement-breakpoint
CREATE INDEX `service_notifications_cart_order_idx` ON `service_notifications` (`cart_id`,`order_id`);
--> statement-breakpoint
CREATE INDEX `service_notifications_service_order_idx` ON `service_notifications` (`service_order_id`);
--> statement-breakpoint
CREATE INDEX `service_notifications_order_idx` ON `service_notifications` (`order_id`);
--> statement-breakpoint
CREATE INDEX `service_notifications_notification_idx` ON `service_notifications` (`notification_id`);
--> statement-breakpoint
CREATE INDEX `service_notifications_outcome_received_idx` ON `service_notifications` (`outcome`,`received_at`);
--> statement-breakpoint
CREATE TABLE `service_order_history` (
	`seq` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`order_id` text NOT NULL,
	`from_status` text,
	`to_status` text NOT NULL,
	`source` text NOT NULL,
	`note` text DEFAULT '' NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL
);

--> statement-breakpoint
CREATE INDEX `service_order_history_order_idx` ON `service_order_history` (`order_id`,`seq`);
--> statement-breakpoint
CREATE TABLE `service_session_trade_ins` (
	`session_id` text PRIMARY KEY NOT NULL,
	`trade_in_id` text NOT NULL,
	`seen_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL
);

--> statement-breakpoint
CREATE TABLE `service_tokens` (
	`id` text PRIMARY KEY NOT NULL,
	`access_token` text NOT NULL,
	`refresh_token` text NOT NULL,
	`user_id` text NOT NULL,
	`merchant_id` text NOT NULL,
	`scope` text NOT NULL,
	`access_expires_at` integer NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL
);

--> statement-breakpoint
CREATE TABLE `service_trade_in_registrations` (
	`id` text PRIMARY KEY NOT NULL,
	`order_id` text NOT NULL,
	`session_hash` text NOT NULL,
	`cart` text NOT NULL,
	`order_amount` integer NOT NULL,
	`customer_id` text,
	`status` text NOT NULL,
	`precheck` integer DEFAULT true NOT NULL,
	`reason` text DEFAULT '' NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`last_error` text DEFAULT '' NOT NULL,
	`unreachable` integer DEFAULT false NOT NULL,
	`next_attempt_at` integer,
	`response` text DEFAULT '' NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL
);

--> statement-breakpoint
CREATE UNIQUE INDEX `service_trade_in_registrations_order_id_unique` ON `service_trade_in_registrations` (`order_id`);
--> statement-breakpoint
CREATE INDEX `service_trade_in_registrations_due_idx` ON `service_trade_in_registrations` (`status`,`next_attempt_at`);
