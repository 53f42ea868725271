"use client";
import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { toast } from "@/lib/browser/toast";
import { z } from "zod";
import { Button } from "@/components/ui/button";
import { FormDialog } from "@/components/ui/dialog";
import { Field, Input } from "@/components/ui/field";
import { commaList } from "@/components/forms/comma-list";
import { useActionForm } from "@/components/forms/use-action-form";
import { createBrandAction, updateBrandAction } from "@/lib/actions/brands";
import { brandInputSchema } from "@/lib/brands/schemas";
import { AliasSuggestions } from "./alias-suggestions";
import { brandsKey, type BrandRow } from "./use-brands-query";
import { displayHost } from "@/lib/analysis/host";

type CompetitorDraft = { key: string; id?: string; name: string; aliases: string; caseSensitiveAliases: string; domains: string };

const schema = z.object({ brandId: z.uuid().optional(), version: z.number().optional(), brand: brandInputSchema });

let draftKey = 0;
const nextKey = () => `c${++draftKey}`;

export function BrandFormDialog({ brand, onClose }: { brand?: BrandRow; onClose: () => void }) {
  const queryClient = useQueryClient();
  const [name, setName] = useState(brand?.name ?? "");
  const [aliases, setAliases] = useState(brand?.aliases.join(", ") ?? "");
  const withAlias = (current: string, alias: string) => (current.trim() ? `${current.trim().replace(/,$/, "")}, ${alias}` : alias);
  const [competitors, setCompetitors] = useState<CompetitorDraft[]>(
    () => brand?.competitors.map((c) => ({ key: nextKey(), id: c.id, name: c.name, aliases: c.aliases.join(", "), caseSensitiveAliases: c.caseSensitiveAliases.join(", "), domains: c.domains.map(displayHost).join(", ") })) ?? [],
  );
  const form = useActionForm(schema, async ({ brandId, version, brand: input }) => (brandId ? updateBrandAction({ brandId, version, brand: input }) : createBrandAction(input)), {
    onSuccess: async () => {
      toast.success(brand ? "Brand saved. Past answers are re-analysed with the new names." : "Brand added");
      await queryClient.invalidateQueries({ queryKey: brandsKey });
      onClose();
    },
    reloadOnConflict: brandsKey,
  });
  const error = (path: string) => form.error(`brand.${path}`) ?? form.error(path);
  const update = (key: string, patch: Partial<CompetitorDraft>) => setCompetitors((all) => all.map((c) => (c.key === key ? { ...c, ...patch } : c)));

  return (
    <FormDialog
      open
      onClose={onClose}
      title={brand ? `Edit ${brand.name}` : "Add a brand"}
      pending={form.pending}
      submitLabel={brand ? "Save" : "Add brand"}
      onSubmit={(data) =>
        form.submit({
          brandId: brand?.id,
          // As opened: an edit saved since (another member's, a competitor tracked) refuses this save instead of being undone.
          version: brand?.analysisVersion,
          brand: {
            name: String(data.get("name")),
            aliases: commaList(String(data.get("aliases"))),
            caseSensitiveAliases: commaList(String(data.get("caseSensitiveAliases"))),
            domains: commaList(String(data.get("domains"))),
            competitors: competitors.map((c) => ({ id: c.id, name: c.name, aliases: commaList(c.aliases), caseSensitiveAliases: commaList(c.caseSensitiveAliases), domains: commaList(c.domains) })),
          },
        })
      }
    >
      <Field id="brand-name" label="Brand name" error={error("name")}>
        <Input id="brand-name" name="name" value={name} onChange={(e) => setName(e.target.value)} autoFocus invalid={!!error("name")} />
      </Field>
      <Field id="brand-aliases" label="Aliases" hint="Other names AI assistants may use, comma separated" error={error("aliases")}>
        <Input id="brand-aliases" name="aliases" value={aliases} onChange={(e) => setAliases(e.target.value)} invalid={!!error("aliases")} />
      </Field>
      <AliasSuggestions name={name} aliases={aliases} onAdd={(alias) => setAliases((current) => withAlias(current, alias))} />
      <Field id="brand-case-aliases" label="Case-sensitive aliases" hint="Names that are also common words, matched only with this exact capitalisation (e.g. Close)" error={error("caseSensitiveAliases")}>
        <Input id="brand-case-aliases" name="caseSensitiveAliases" defaultValue={brand?.caseSensitiveAliases.join(", ")} invalid={!!error("caseSensitiveAliases")} />
      </Field>
      <Field id="brand-domains" label="Domains" hint="Your own sites, e.g. example.com" error={error("domains") ?? error("domains.0")}>
        <Input id="brand-domains" name="domains" defaultValue={brand?.domains.map(displayHost).join(", ")} invalid={!!(error("domains") ?? error("domains.0"))} />
      </Field>

      <fieldset className="space-y-3">
        <legend className="text-sm font-medium text-slate-700">Competitors</legend>
        {competitors.length === 0 && <p className="text-xs text-slate-500">No competitors yet. Add the brands you lose deals to.</p>}
        {competitors.map((c, i) => (
          <div key={c.key} className="grid grid-cols-[1fr_1fr_1fr_auto] items-start gap-2">
            <Field id={`competitor-${c.key}-name`} label={`Competitor ${i + 1}`} error={error(`competitors.${i}.name`)}>
              <Input id={`competitor-${c.key}-name`} value={c.name} onChange={(e) => update(c.key, { name: e.target.value })} invalid={!!error(`competitors.${i}.name`)} />
            </Field>
            <Field id={`competitor-${c.key}-aliases`} label="Aliases" error={error(`competitors.${i}.aliases`)}>
              <Input id={`competitor-${c.key}-aliases`} value={c.aliases} onChange={(e) => update(c.key, { aliases: e.target.value })} />
              <AliasSuggestions name={c.name} aliases={c.aliases} onAdd={(alias) => update(c.key, { aliases: withAlias(c.aliases, alias) })} />
            </Field>
            <Field id={`competitor-${c.key}-domains`} label="Domains" error={error(`competitors.${i}.domains`) ?? error(`competitors.${i}.domains.0`)}>
              <Input id={`competitor-${c.key}-domains`} value={c.domains} onChange={(e) => update(c.key, { domains: e.target.value })} />
            </Field>
            <Button type="button" variant="ghost" size="sm" className="mt-6" aria-label={`Remove competitor ${c.name || i + 1}`} onClick={() => setCompetitors((all) => all.filter((x) => x.key !== c.key))}>
              ✕
            </Button>
          </div>
        ))}
        {error("competitors") && <p className="text-xs text-red-600">{error("competitors")}</p>}
        <Button type="button" variant="secondary" size="sm" onClick={() => setCompetitors((all) => [...all, { key: nextKey(), name: "", aliases: "", caseSensitiveAliases: "", domains: "" }])}>
          + Add competitor
        </Button>
      </fieldset>
    </FormDialog>
  );
}
