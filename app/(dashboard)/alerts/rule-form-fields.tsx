"use client";
import { Field, Input, Select } from "@/components/ui/field";
import type { AlertKind, FormField, FormParams, FormRow } from "@/lib/alerts/kinds/kind";
import type { RuleChoices } from "@/lib/alerts/rules";

// The rule form's inputs, drawn from a kind's form description (lib/alerts/kinds/<kind>.ts):
// while editing, numbers are held as the text typed (scaled, e.g. points for a stored fraction)
// and lists as text; `paramsToSubmit` turns them back into what the kind's schema reads.

/** Checkboxes for a set of ids; none checked means "all" where the hint says so. */
export function CheckList({ legend, hint, items, selected, onChange }: { legend: string; hint?: string; items: { id: string; name: string }[]; selected: string[]; onChange: (ids: string[]) => void }) {
  if (!items.length) return null;
  return (
    <fieldset>
      <legend className="text-sm font-medium text-slate-700">{legend}</legend>
      {hint && <p className="text-xs text-slate-500">{hint}</p>}
      <div className="mt-2 flex flex-wrap gap-x-4 gap-y-2">
        {items.map((item) => (
          <label key={item.id} className="flex items-center gap-2 text-sm text-slate-700">
            <input
              type="checkbox"
              className="h-4 w-4 rounded border-slate-300"
              checked={selected.includes(item.id)}
              onChange={(e) => onChange(e.target.checked ? [...selected, item.id] : selected.filter((id) => id !== item.id))}
            />
            {item.name}
          </label>
        ))}
      </div>
    </fieldset>
  );
}

const fieldsOf = (kind: AlertKind) => kind.form.flatMap((row): readonly FormField[] => ("type" in row ? [row] : row));

/** The schema's default for a param, if it has one. */
function defaultOf(kind: AlertKind, key: string): unknown {
  const parsed = kind.params.shape[key]?.safeParse(undefined);
  return parsed?.success ? parsed.data : undefined;
}

/** What a select shows: the chosen value, else the schema's default, else its first option. */
function selected(kind: AlertKind, field: Extract<FormField, { type: "select" }>, params: FormParams) {
  return params[field.key] ?? defaultOf(kind, field.key) ?? field.options[0]?.value;
}

/** The params with every select at the value it shows (labels and scales depend on them). */
export function shownParams(kind: AlertKind, params: FormParams): FormParams {
  const shown = { ...params };
  for (const field of fieldsOf(kind)) if (field.type === "select") shown[field.key] = selected(kind, field, params);
  return shown;
}

/** A stored rule's params as the form edits them. */
export function formParams(kind: AlertKind, stored: FormParams): FormParams {
  const params = { ...stored };
  const shown = shownParams(kind, stored);
  for (const field of fieldsOf(kind)) {
    const value = stored[field.key];
    if (field.type !== "number" || typeof value !== "number") continue;
    const scale = field.scale?.(shown) ?? 1;
    if (field.optional && !value) params[field.key] = "";
    else params[field.key] = String(scale === 1 ? value : Math.round(value * scale * 10) / 10);
  }
  return params;
}

/** Only what this kind takes, in the units its schema reads; the schema fills in the rest. */
export function paramsToSubmit(kind: AlertKind, params: FormParams): FormParams {
  const shown = shownParams(kind, params);
  const out: FormParams = {};
  for (const field of fieldsOf(kind)) {
    const value = shown[field.key];
    // An emptied list is an empty list (refused: a threshold is needed); an emptied number is the default.
    if (field.type === "numbers" && typeof value === "string") out[field.key] = value.split(/[\s,;]+/).filter(Boolean).map(Number);
    else if (value === undefined || value === "") continue;
    else if (field.type === "number") out[field.key] = Number(value) / (field.scale?.(shown) ?? 1);
    else out[field.key] = value;
  }
  return out;
}

type FieldProps = {
  kind: AlertKind;
  field: FormField;
  params: FormParams;
  choices: RuleChoices;
  brandId: string;
  set: (key: string, value: unknown) => void;
  error: (path: string) => string | undefined;
};

function KindField({ kind, field, params, choices, brandId, set, error }: FieldProps) {
  const id = `rule-${field.key}`;
  const fieldError = error(`params.${field.key}`);
  switch (field.type) {
    case "number": {
      const text = params[field.key];
      const empty = text === undefined || text === "";
      const label = typeof field.label === "string" ? field.label : field.label(shownParams(kind, params));
      return (
        <Field id={id} label={label} hint={field.hint} error={fieldError}>
          <Input
            id={id}
            type="number"
            min={field.min}
            max={field.max}
            step={field.step}
            value={empty ? (field.optional ? "" : String(defaultOf(kind, field.key))) : String(text)}
            onChange={(e) => set(field.key, e.target.value)}
            invalid={!!fieldError}
            className="max-w-32"
          />
        </Field>
      );
    }
    case "select": {
      const value = selected(kind, field, params);
      return (
        <Field id={id} label={field.label} hint={field.hint} error={fieldError}>
          <Select id={id} value={String(value)} onChange={(e) => set(field.key, field.options.find((o) => String(o.value) === e.target.value)?.value)}>
            {field.options.map((o) => (
              <option key={o.value} value={o.value}>{o.label}</option>
            ))}
          </Select>
        </Field>
      );
    }
    case "numbers": {
      const value = params[field.key] ?? defaultOf(kind, field.key);
      return (
        <Field id={id} label={field.label} hint={field.hint} error={fieldError}>
          <Input id={id} value={Array.isArray(value) ? value.join(", ") : String(value ?? "")} onChange={(e) => set(field.key, e.target.value)} invalid={!!fieldError} />
        </Field>
      );
    }
    default: {
      const items =
        field.type === "competitors"
          ? (choices.brands.find((b) => b.id === brandId)?.competitors ?? [])
          : field.type === "providers"
            ? choices.providers
            : choices.tags.map((t) => ({ id: t, name: t }));
      return <CheckList legend={field.legend} hint={field.hint} items={items} selected={(params[field.key] as string[] | undefined) ?? []} onChange={(ids) => set(field.key, ids)} />;
    }
  }
}

const GRID_COLUMNS: Record<number, string> = { 2: "sm:grid-cols-2", 3: "sm:grid-cols-3" };

/** The kind's form rows: a row of several fields side by side in a grid. */
export function KindFields({ row, ...props }: Omit<FieldProps, "field"> & { row: FormRow }) {
  if ("type" in row) return <KindField field={row} {...props} />;
  return (
    <div className={`grid gap-4 ${GRID_COLUMNS[row.length] ?? ""}`}>
      {row.map((field) => (
        <KindField key={field.key} field={field} {...props} />
      ))}
    </div>
  );
}

/** The params a brand change empties: competitors are the brand's. */
export const brandBoundKeys = (kind: AlertKind) => fieldsOf(kind).filter((f) => f.type === "competitors").map((f) => f.key);
