"use client";
import { BreakersTable } from "@/components/breakers/breakers-table";
import { Button } from "@/components/ui/button";
import { Card, PageHeader } from "@/components/ui/card";
import type { EngineChoice } from "@/lib/providers/labels";
import { SectionHeading } from "@/components/ui/section-heading";
import { ConnectionsSection } from "./connections-section";
import { GrantsSection } from "./grants-section";
import { OperatorsSection } from "./operators-section";
import { instanceKey, useInstanceQuery } from "./use-instance-query";

/** `engines`: the server's engines (lib/providers/registry.ts engineChoices), for labels and the connection form. */
export function InstancePage({ me, engines }: { me: string; engines: EngineChoice[] }) {
  const query = useInstanceQuery();
  return (
    <>
      <PageHeader
        title="Instance"
        description="This server's provider connections (API keys come from its environment), the workspaces allowed to use each, their circuit breakers, and the operators who manage all of it. Only operators see this page."
      />
      {query.isPending ? (
        <Card className="p-6 text-sm text-slate-500">Loading the instance…</Card>
      ) : query.isError ? (
        <Card className="p-6 text-sm text-red-600">
          Could not load the instance: {query.error.message}{" "}
          <Button variant="ghost" size="sm" onClick={() => query.refetch()}>
            Retry
          </Button>
        </Card>
      ) : (
        <div className="space-y-10">
          <ConnectionsSection connections={query.data.connections} engines={engines} />
          <GrantsSection connections={query.data.connections} workspaces={query.data.workspaces} />
          <section aria-labelledby="breakers-heading" className="space-y-3">
            <SectionHeading
              id="breakers-heading"
              title="Circuit breakers"
              description="One per connection and model, shared by every workspace and worker. While one is open its captures wait instead of failing; one probe call decides when it closes. Forcing one affects every workspace on the connection."
            />
            <Card className="overflow-hidden">
              <BreakersTable breakers={query.data.breakers} canForce invalidates={[instanceKey, ["breakers"]]} />
            </Card>
          </section>
          <OperatorsSection operators={query.data.operators} me={me} />
        </div>
      )}
    </>
  );
}
