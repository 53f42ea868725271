"use client";
import { useQueryClient } from "@tanstack/react-query";
import { useRef } from "react";
import { toast } from "@/lib/browser/toast";
import { z } from "zod";
import { Button } from "@/components/ui/button";
import { Badge, Card } from "@/components/ui/card";
import { DataTable } from "@/components/ui/data-table";
import { Field, Input } from "@/components/ui/field";
import { SectionHeading } from "@/components/ui/section-heading";
import { type Column } from "@/components/ui/table-columns";
import { useActionForm } from "@/components/forms/use-action-form";
import { grantOperatorAction } from "@/lib/actions/instance";
import { instanceKey, type InstanceOverview } from "./use-instance-query";
import { formatDate } from "@/lib/format";

// The server's schema (lib/actions/instance.ts) also refuses control characters; this one only
// gives the instant message for an empty field.
type Operator = InstanceOverview["operators"][number];

const schema = z.object({ email: z.string().trim().min(3, "Enter the email of an account").max(320) });

export function OperatorsSection({ operators, me }: { operators: InstanceOverview["operators"]; me: string }) {
  const queryClient = useQueryClient();
  const columns: Column<Operator>[] = [
    {
      id: "name",
      header: "Name",
      className: "font-medium text-slate-900",
      cell: (o) => (
        <>
          {o.name} {o.userId === me && <Badge>you</Badge>}
        </>
      ),
    },
    { id: "email", header: "Email", className: "text-slate-600", cell: (o) => o.email },
    { id: "since", header: "Operator since", className: "whitespace-nowrap text-slate-600", cell: (o) => formatDate(o.grantedAt) },
  ];
  const formRef = useRef<HTMLFormElement>(null);
  const submitted = useRef("");
  const form = useActionForm(schema, grantOperatorAction, {
    onSuccess: async (result) => {
      const email = submitted.current.trim();
      toast.success(result.alreadyOperator ? `${email} is already an operator` : `${email} is now an operator`);
      formRef.current?.reset();
      await queryClient.invalidateQueries({ queryKey: instanceKey });
    },
  });

  return (
    <section aria-labelledby="operators-heading" className="space-y-3">
      <SectionHeading
        id="operators-heading"
        title="Operators"
        description="The people who run this server: they see this page, manage connections and grants, and force breakers. Being an operator does not make anyone a member of a workspace. From a shell: npm run beacon -- admin grant <email>."
      />
      <Card className="space-y-4 overflow-hidden p-5">
        <form
          ref={formRef}
          noValidate
          className="flex flex-wrap items-start gap-3"
          onSubmit={(event) => {
            event.preventDefault();
            submitted.current = String(new FormData(event.currentTarget).get("email"));
            form.submit({ email: submitted.current });
          }}
        >
          <div className="min-w-64 flex-1">
            <Field id="operator-email" label="Email of an account" hint="The person must have signed up already." error={form.error("email")}>
              <Input id="operator-email" name="email" type="email" autoComplete="off" invalid={!!form.error("email")} />
            </Field>
          </div>
          <Button type="submit" className="mt-6" pending={form.pending}>
            Make operator
          </Button>
        </form>
        <DataTable rows={operators} columns={columns} rowKey={(o) => o.userId} density="dense" className="-mx-5 -mb-5 border-t border-slate-200" />
      </Card>
    </section>
  );
}
