"use client";
import { useMutation } from "@tanstack/react-query";
import { Link } from "@/components/ui/link";
import { useState } from "react";
import { toast } from "@/lib/browser/toast";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { Field, Input, Select } from "@/components/ui/field";
import { requestSetupSuggestionsAction } from "@/lib/actions/setup";
import { formatMicros } from "@/lib/format";
import { ActionFailure, unwrap, type FieldErrors } from "@/lib/browser/action-result";
import { MAX_OFFERING, registrableDomainOf, SETUP_LANGUAGES } from "@/lib/setup/schemas";
import { ProposalEditor, type ProviderChoice } from "./proposal-editor";
import { SetupSteps } from "./setup-steps";
import { useSetupSuggestionQuery } from "./use-setup-suggestion-query";

type Connection = { id: string; name: string; simulator: boolean };

/**
 * The first run: step 1 asks for the website, optionally what it sells, the questions' language
 * and country and the connection that writes the suggestions; the worker writes them (polled
 * here); step 2 edits and accepts them (proposal-editor.tsx); step 3 is the check's page.
 */
export function SetupWizard(props: { connections: Connection[]; providers: ProviderChoice[] }) {
  const [domain, setDomain] = useState("");
  const [offering, setOffering] = useState("");
  const [language, setLanguage] = useState("en");
  const [country, setCountry] = useState("");
  const [connectionId, setConnectionId] = useState(() => (props.connections.find((c) => c.simulator) ?? props.connections[0])?.id ?? "");
  const [errors, setErrors] = useState<FieldErrors>({});
  const [suggestionId, setSuggestionId] = useState<string | null>(null);
  const suggestion = useSetupSuggestionQuery(suggestionId);

  const request = useMutation({
    mutationFn: async () => unwrap(await requestSetupSuggestionsAction({ domain, offering, language, country, connectionId })),
    onSuccess: ({ suggestionId }) => {
      setErrors({});
      setSuggestionId(suggestionId);
    },
    onError: (error) => {
      if (error instanceof ActionFailure) setErrors(error.fieldErrors);
      toast.error(error.message);
    },
  });

  const data = suggestion.data;
  if (data?.status === "succeeded" && data.proposal) {
    const cost = data.costMicros ? ` for ${formatMicros(data.costMicros)}` : "";
    return (
      <>
        <SetupSteps current={2} />
        <ProposalEditor
          suggestionId={data.id}
          proposal={data.proposal}
          providers={props.providers}
          simulated={data.simulated ? { address: data.address ?? data.domain, offering: data.offering } : null}
          footnote={data.simulated ? `Invented by ${data.connection}, a simulator${cost}.` : `Suggested by ${data.connection}${cost}.`}
        />
      </>
    );
  }
  const working = !!suggestionId && (!data || data.status === "queued" || data.status === "running");
  const normalised = registrableDomainOf(domain);
  const error = (key: string) => errors[key]?.[0];
  const simulator = props.connections.find((c) => c.id === connectionId)?.simulator;
  const byHand = (
    <p className="mt-3 text-sm text-slate-600">
      Prefer to do it yourself?{" "}
      <Link href="/brands" className="font-medium text-brand-700 hover:underline">
        Add your brand and prompts by hand
      </Link>
      , then run a check.
    </p>
  );

  if (!props.connections.length) {
    return (
      <>
        <SetupSteps current={1} />
        <Card className="p-5 text-sm text-slate-600">No connection that writes answers is granted to this workspace, so Beacon cannot suggest anything. Ask an operator to grant one.</Card>
        {byHand}
      </>
    );
  }

  return (
    <>
      <SetupSteps current={1} />
      <Card className="p-5">
        <form
          className="grid grid-cols-1 gap-4 sm:grid-cols-2"
          aria-label="Set up from your website"
          onSubmit={(event) => {
            event.preventDefault();
            request.mutate();
          }}
        >
          <div className="sm:col-span-2">
            <Field id="setup-domain" label="Your website" error={error("domain")} hint={normalised ? `Suggestions for ${normalised}` : "Its domain, e.g. acme.com"}>
              <Input id="setup-domain" value={domain} onChange={(e) => setDomain(e.target.value)} placeholder="acme.com" autoComplete="url" invalid={!!error("domain")} disabled={working} />
            </Field>
          </div>
          <div className="sm:col-span-2">
            <Field id="setup-offering" label="What do you sell? (optional)" error={error("offering")} hint="A few words, e.g. camping tents: they help choose the category and competitors.">
              <Input id="setup-offering" value={offering} onChange={(e) => setOffering(e.target.value)} placeholder="camping tents" maxLength={MAX_OFFERING} invalid={!!error("offering")} disabled={working} />
            </Field>
          </div>
          <Field id="setup-language" label="Language of the questions" error={error("language")}>
            <Select id="setup-language" value={language} onChange={(e) => setLanguage(e.target.value)} disabled={working}>
              {SETUP_LANGUAGES.map((l) => (
                <option key={l.code} value={l.code}>
                  {l.label}
                </option>
              ))}
            </Select>
          </Field>
          <Field id="setup-country" label="Country (optional)" error={error("country")} hint="Two letters, e.g. US or DE">
            <Input id="setup-country" value={country} onChange={(e) => setCountry(e.target.value)} maxLength={2} invalid={!!error("country")} disabled={working} />
          </Field>
          <div className="sm:col-span-2">
            <Field
              id="setup-connection"
              label="Write the suggestions with"
              error={error("connectionId")}
              hint={
                simulator
                  ? "A simulator needs no API key but knows nothing about your business: it invents names, competitors and questions from the words of your address (and what you sell), to try Beacon out."
                  : "One call, charged to this month's budget like a check's."
              }
            >
              <Select id="setup-connection" value={connectionId} onChange={(e) => setConnectionId(e.target.value)} disabled={working}>
                {props.connections.map((c) => (
                  <option key={c.id} value={c.id}>
                    {c.name}
                  </option>
                ))}
              </Select>
            </Field>
          </div>
          <div className="flex flex-wrap items-center gap-3 sm:col-span-2">
            <Button type="submit" pending={request.isPending || working}>
              {data?.status === "failed" ? "Try again" : "Suggest brand, competitors and questions"}
            </Button>
            {working && (
              <p role="status" className="text-sm text-slate-600">
                Writing suggestions for {data?.domain ?? normalised}…
              </p>
            )}
            {data?.status === "failed" && (
              <p role="alert" className="text-sm text-red-600">
                {data.error}
              </p>
            )}
          </div>
        </form>
      </Card>
      {byHand}
    </>
  );
}
