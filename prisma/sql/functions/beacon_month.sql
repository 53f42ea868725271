-- The month every ledger row, hold and reservation counts in: the first day of the current UTC
-- month of the DATABASE clock (lib/billing/budget.ts explains why not the app's), at the
-- transaction's start (now()), so every statement of a transaction agrees on it.
CREATE OR REPLACE FUNCTION public.beacon_month()
 RETURNS date
 LANGUAGE sql
 STABLE PARALLEL SAFE
AS $function$
  SELECT date_trunc('month', now() AT TIME ZONE 'UTC')::date
$function$;
