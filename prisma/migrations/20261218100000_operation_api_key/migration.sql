-- A check's cancel asked through the REST API is an operation like the page's (it used to run in
-- the request, beside a retry's job instead of after it): its record names the API key, which its
-- job passes on to the events it writes, as the synchronous path did.
ALTER TABLE "check_operations" ADD COLUMN "requestedByApiKeyId" UUID;
