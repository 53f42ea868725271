-- The host a keyed import gives lines without one (the one the request named, or the workspace's
-- only domain when it began): a request that resumes it after the brand's domains changed keeps
-- it, so one log's host-less lines do not split between two sites (lib/traffic/import.ts). '' when
-- there was none (several domains, no host given); NULL for an import begun before this column,
-- which resumes with the host as it is computed now, as before.
ALTER TABLE "traffic_imports" ADD COLUMN "fallbackHost" TEXT;
