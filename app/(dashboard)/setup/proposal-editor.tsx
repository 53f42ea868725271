"use client";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { toast } from "@/lib/browser/toast";
import { commaList } from "@/components/forms/comma-list";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { Field, Input } from "@/components/ui/field";
import { acceptSetupAction } from "@/lib/actions/setup";
import { ActionFailure, unwrap, type FieldErrors } from "@/lib/browser/action-result";
import type { SetupProposal } from "@/lib/setup/schemas";
import { displayHost } from "@/lib/analysis/host";

export type ProviderChoice = { id: string; name: string; model: string };

type Entity = { key: number; name: string; aliases: string; domains: string };
type Question = { key: number; ask: boolean; text: string; tags: string };

const joined = (items: string[]) => items.join(", ");
let nextKey = 0;
const key = () => ++nextKey;

/**
 * Step 2: everything the suggestions propose, editable (brand, competitors, questions with their
 * tags, the providers of the first check), then one accept that creates it all and starts the
 * check. Lists are comma-separated; every control is a native one, so the keyboard reaches all.
 */
export function ProposalEditor(props: {
  suggestionId: string;
  proposal: SetupProposal;
  providers: ProviderChoice[];
  /** Written by a simulator: from which words, so the notice can say what was invented. */
  simulated: { address: string; offering: string | null } | null;
  footnote: string;
}) {
  const router = useRouter();
  const queryClient = useQueryClient();
  const { proposal } = props;
  const [brand, setBrand] = useState<Entity>({ key: 0, name: proposal.brand.name, aliases: joined(proposal.brand.aliases), domains: joined(proposal.brand.domains.map(displayHost)) });
  const [competitors, setCompetitors] = useState<Entity[]>(() => proposal.competitors.map((c) => ({ key: key(), name: c.name, aliases: joined(c.aliases), domains: joined(c.domains.map(displayHost)) })));
  const [questions, setQuestions] = useState<Question[]>(() => proposal.questions.map((q) => ({ key: key(), ask: true, text: q.text, tags: joined(q.tags) })));
  const [providerIds, setProviderIds] = useState<Set<string>>(() => new Set(props.providers.map((p) => p.id)));
  const [errors, setErrors] = useState<FieldErrors>({});

  const asked = questions.filter((q) => q.ask);
  const input = {
    suggestionId: props.suggestionId,
    brand: {
      name: brand.name,
      aliases: commaList(brand.aliases),
      domains: commaList(brand.domains),
      competitors: competitors.map((c) => ({ name: c.name, aliases: commaList(c.aliases), domains: commaList(c.domains) })),
    },
    questions: asked.map((q) => ({ text: q.text, tags: commaList(q.tags) })),
    providerConfigIds: [...providerIds],
  };

  const accept = useMutation({
    mutationFn: async () => unwrap(await acceptSetupAction(input)),
    onSuccess: async ({ checkId }) => {
      toast.success("Set up. The first check is running.");
      await queryClient.invalidateQueries();
      router.push(`/checks/${checkId}`);
    },
    onError: (error) => {
      if (error instanceof ActionFailure) setErrors(error.fieldErrors);
      toast.error(error.message);
    },
  });

  // Messages for a field or anything under it ("brand.competitors.2" takes "brand.competitors.2.domains.0").
  const error = (prefix: string) => Object.entries(errors).find(([k]) => k === prefix || k.startsWith(`${prefix}.`))?.[1]?.[0];
  const questionError = (q: Question) => {
    const index = asked.indexOf(q);
    return index === -1 ? undefined : error(`questions.${index}`);
  };
  const editCompetitor = (k: number, patch: Partial<Entity>) => setCompetitors((all) => all.map((c) => (c.key === k ? { ...c, ...patch } : c)));
  const editQuestion = (k: number, patch: Partial<Question>) => setQuestions((all) => all.map((q) => (q.key === k ? { ...q, ...patch } : q)));

  return (
    <form
      className="space-y-6"
      aria-label="Edit the suggestions"
      onSubmit={(event) => {
        event.preventDefault();
        accept.mutate();
      }}
    >
      {props.simulated && (
        // Above the lists, not in the footnote: a simulated proposal looks as confident as a real one.
        <div role="note" aria-labelledby="simulated-heading" className="rounded-lg bg-amber-50 px-5 py-4 text-sm text-amber-900 ring-1 ring-inset ring-amber-200">
          <h2 id="simulated-heading" className="font-semibold">
            Invented by the simulator
          </h2>
          <p className="mt-1 wrap-anywhere">
            These suggestions were made up offline from the words in your address ({props.simulated.address}
            {props.simulated.offering ? ` and "${props.simulated.offering}"` : ""}): the brand&apos;s other names, the competitors, their domains and the questions are
            invented, not researched. Replace them with real ones here, or connect a real assistant (an operator grants one to the workspace) for real suggestions.
          </p>
        </div>
      )}

      <Card className="grid grid-cols-1 gap-4 p-5 sm:grid-cols-3">
        <h2 className="text-base font-semibold text-slate-900 sm:col-span-3">Your brand</h2>
        <Field id="brand-name" label="Brand name" error={error("brand.name")}>
          <Input id="brand-name" value={brand.name} onChange={(e) => setBrand({ ...brand, name: e.target.value })} invalid={!!error("brand.name")} />
        </Field>
        <Field id="brand-aliases" label="Other names" hint="Comma-separated" error={error("brand.aliases")}>
          <Input id="brand-aliases" value={brand.aliases} onChange={(e) => setBrand({ ...brand, aliases: e.target.value })} invalid={!!error("brand.aliases")} />
        </Field>
        <Field id="brand-domains" label="Domains" hint="Comma-separated" error={error("brand.domains")}>
          <Input id="brand-domains" value={brand.domains} onChange={(e) => setBrand({ ...brand, domains: e.target.value })} invalid={!!error("brand.domains")} />
        </Field>
      </Card>

      <Card className="p-5">
        <h2 className="text-base font-semibold text-slate-900">Competitors</h2>
        <ul className="mt-3 space-y-3">
          {competitors.map((c, i) => {
            const message = error(`brand.competitors.${i}`);
            return (
              <li key={c.key} className="grid grid-cols-1 items-start gap-2 sm:grid-cols-[1fr_1fr_auto]">
                <Input aria-label={`Competitor ${i + 1} name`} value={c.name} onChange={(e) => editCompetitor(c.key, { name: e.target.value })} invalid={!!message} />
                <Input aria-label={`Competitor ${i + 1} domains`} value={c.domains} placeholder="rival.com" onChange={(e) => editCompetitor(c.key, { domains: e.target.value })} invalid={!!message} />
                <Button type="button" variant="ghost" aria-label={`Remove ${c.name || `competitor ${i + 1}`}`} onClick={() => setCompetitors((all) => all.filter((x) => x.key !== c.key))}>
                  Remove
                </Button>
                {message && (
                  <p role="alert" className="text-xs text-red-600 sm:col-span-3">
                    {message}
                  </p>
                )}
              </li>
            );
          })}
        </ul>
        <Button type="button" variant="secondary" size="sm" className="mt-3" onClick={() => setCompetitors((all) => [...all, { key: key(), name: "", aliases: "", domains: "" }])}>
          Add competitor
        </Button>
      </Card>

      <Card className="p-5">
        <h2 className="text-base font-semibold text-slate-900">Questions your buyers ask</h2>
        <p className="text-sm text-slate-500">
          {asked.length} of {questions.length} will be asked. Untick the ones that do not fit; edit the text and the tags (comma-separated).
        </p>
        {error("questions") && !asked.length && (
          <p role="alert" className="mt-2 text-xs text-red-600">
            {error("questions")}
          </p>
        )}
        <ul className="mt-3 space-y-2">
          {questions.map((q, i) => {
            const message = questionError(q);
            return (
              <li key={q.key} className="grid grid-cols-[auto_minmax(0,1fr)] items-start gap-2 sm:grid-cols-[auto_1fr_12rem]">
                <input type="checkbox" className="mt-2.5 size-4" aria-label={`Ask question ${i + 1}`} checked={q.ask} onChange={(e) => editQuestion(q.key, { ask: e.target.checked })} />
                <Input aria-label={`Question ${i + 1}`} value={q.text} onChange={(e) => editQuestion(q.key, { text: e.target.value })} invalid={!!message} />
                <Input className="col-start-2 sm:col-start-auto" aria-label={`Tags of question ${i + 1}`} value={q.tags} onChange={(e) => editQuestion(q.key, { tags: e.target.value })} invalid={!!message} />
                {message && (
                  <p role="alert" className="col-span-2 text-xs text-red-600 sm:col-span-3">
                    {message}
                  </p>
                )}
              </li>
            );
          })}
        </ul>
        <Button type="button" variant="secondary" size="sm" className="mt-3" onClick={() => setQuestions((all) => [...all, { key: key(), ask: true, text: "", tags: "" }])}>
          Add question
        </Button>
      </Card>

      <Card className="p-5">
        <fieldset>
          <legend className="text-base font-semibold text-slate-900">Ask them on</legend>
          {error("providerConfigIds") && (
            <p role="alert" className="text-xs text-red-600">
              {error("providerConfigIds")}
            </p>
          )}
          {!props.providers.length && (
            <p className="mt-2 text-sm text-slate-600">This workspace has no provider that can run now. Ask an admin to add one in Settings, then accept.</p>
          )}
          <div className="mt-2 flex flex-wrap gap-4">
            {props.providers.map((p) => (
              <label key={p.id} className="flex items-center gap-2 text-sm text-slate-700">
                <input
                  type="checkbox"
                  className="size-4"
                  checked={providerIds.has(p.id)}
                  onChange={(e) =>
                    setProviderIds((ids) => {
                      const next = new Set(ids);
                      if (e.target.checked) next.add(p.id);
                      else next.delete(p.id);
                      return next;
                    })
                  }
                />
                {p.name} <span className="text-xs text-slate-500">{p.model}</span>
              </label>
            ))}
          </div>
        </fieldset>
      </Card>

      <div className="flex flex-wrap items-center gap-3">
        <Button type="submit" pending={accept.isPending} disabled={!asked.length || !providerIds.size}>
          Accept and start the first check
        </Button>
        <span className="text-sm text-slate-500">
          {asked.length} questions × {providerIds.size} providers = {asked.length * providerIds.size} answers. {props.footnote}
        </span>
      </div>
    </form>
  );
}
