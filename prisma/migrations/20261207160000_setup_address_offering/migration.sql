-- Issue 19, item 9: the wizard keeps the website as typed (host and path, whose words tell the
-- simulator what the site sells: "northwind-outdoor.co.uk/tents") and the person's optional
-- answer to "What do you sell?"; both go into the real model's prompt too. Null on older rows.
ALTER TABLE "setup_suggestions"
  ADD COLUMN "address" TEXT,
  ADD COLUMN "offering" TEXT;
