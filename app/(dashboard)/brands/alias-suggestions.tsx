"use client";
import { Button } from "@/components/ui/button";
import { transliteratedAliases } from "@/lib/analysis/transliteration";

/** "Also matches: Озон [+]": the name in the other script, added to the aliases with one click. */
export function AliasSuggestions({ name, aliases, onAdd }: { name: string; aliases: string; onAdd: (alias: string) => void }) {
  const suggestions = transliteratedAliases(name, aliases.split(",")).slice(0, 2);
  if (!suggestions.length) return null;
  return (
    <p className="flex flex-wrap items-center gap-2 text-xs text-slate-500">
      Also matches in answers in the other script:
      {suggestions.map((alias) => (
        <Button key={alias} type="button" variant="secondary" size="sm" aria-label={`Add alias ${alias}`} onClick={() => onAdd(alias)}>
          + {alias}
        </Button>
      ))}
    </p>
  );
}
