-- One worker watches a mailbox at a time: the lease its holder renews, taken over when it lapses.
CREATE TABLE "mailbox_leases" (
	"source" text PRIMARY KEY NOT NULL,
	"holder" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"taken_at" timestamp with time zone DEFAULT now() NOT NULL
);
