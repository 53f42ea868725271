-- Generated from TRANSITIONS in lib/captures/states.ts by `npm run sql:generate`; do not edit.
-- The statuses a transition moves a capture from (its guard), for transitions run in SQL.
CREATE OR REPLACE FUNCTION public.beacon_transition_from(transition text)
 RETURNS "CaptureStatus"[]
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
AS $function$
  SELECT CASE transition
    WHEN 'claim' THEN '{queued,retry_wait,postponed}'::"CaptureStatus"[]
    WHEN 'refuse' THEN '{queued,retry_wait,postponed}'::"CaptureStatus"[]
    WHEN 'postpone' THEN '{queued,retry_wait,postponed}'::"CaptureStatus"[]
    WHEN 'succeed' THEN '{running}'::"CaptureStatus"[]
    WHEN 'fail' THEN '{running}'::"CaptureStatus"[]
    WHEN 'expireLease' THEN '{running}'::"CaptureStatus"[]
    WHEN 'cancel' THEN '{queued,retry_wait,postponed,running}'::"CaptureStatus"[]
    WHEN 'adminRetry' THEN '{failed,cancelled}'::"CaptureStatus"[]
  END
$function$;
