import { EmptyState, PageHeader } from "@/components/ui/card";
import { AlertsNav } from "./alerts-nav";

/** What members and viewers see instead of channels and the delivery log, and why. */
export function AdminsOnly({ title, what }: { title: string; what: string }) {
  return (
    <>
      <PageHeader title={title} tabs={<AlertsNav />} />
      <EmptyState
        title={`Only admins can see ${what}`}
        description="Alert channels hold webhook URLs, signing secrets and email addresses, and the delivery log shows what receivers answered. Ask an admin or owner of this workspace if you need a channel added or a delivery checked."
      />
    </>
  );
}
