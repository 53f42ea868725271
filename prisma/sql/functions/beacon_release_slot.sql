-- Whatever moves a capture out of running gives its slot back, in the same transaction.
CREATE OR REPLACE FUNCTION public.beacon_release_slot()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  UPDATE "connection_slots" SET "captureId" = NULL, "workspaceId" = NULL, "takenAt" = NULL WHERE "captureId" = NEW."id";
  RETURN NULL;
END
$function$;
