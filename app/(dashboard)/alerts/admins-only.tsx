import { EmptyState } from "@/components/ui/card";

/** What members and viewers see instead of channels and the delivery log, and why. */
export function AdminsOnly({ what }: { what: string }) {
  return (
    <EmptyState
      title={`Only admins can see ${what}`}
      description="Alert channels hold webhook URLs, signing secrets and email addresses, and the delivery log shows what receivers answered. Ask an admin or owner of this workspace if you need a channel added or a delivery checked."
    />
  );
}
