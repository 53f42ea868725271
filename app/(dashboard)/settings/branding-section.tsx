"use client";
import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { toast } from "@/lib/browser/toast";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { Field, Input } from "@/components/ui/field";
import { SectionHeading } from "@/components/ui/section-heading";
import { useActionForm } from "@/components/forms/use-action-form";
import { setBrandingAction } from "@/lib/actions/share-links";
import { brandingInput, LOGO_TYPES, MAX_LOGO_BYTES } from "@/lib/share-links/schemas";
import { brandingKey, useBrandingQuery } from "./use-share-links-query";

/** The file as base64 (without the data: prefix), for the action's JSON input. */
async function base64Of(file: File): Promise<string> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

/** Agency name and logo on shared reports and printouts (admins). */
export function BrandingSection() {
  const queryClient = useQueryClient();
  const query = useBrandingQuery();
  const [fileError, setFileError] = useState<string>();
  const [version, setVersion] = useState(0);
  const form = useActionForm(brandingInput, setBrandingAction, {
    onSuccess: async () => {
      toast.success("Branding saved");
      setVersion((v) => v + 1);
      await queryClient.invalidateQueries({ queryKey: brandingKey });
    },
    reloadOnConflict: brandingKey,
  });
  const branding = query.data;
  return (
    <section aria-labelledby="branding-heading" className="space-y-3">
      <SectionHeading id="branding-heading" title="Agency branding" description="Your name and logo at the top of shared reports and printed Overviews (“Prepared by …”)." />
      <Card className="p-5">
        {branding && (
          <form
            key={`${version}:${String(branding.updatedAt)}`}
            noValidate
            className="space-y-4"
            onSubmit={async (event) => {
              event.preventDefault();
              const elements = event.currentTarget.elements;
              const agencyName = (elements.namedItem("agencyName") as HTMLInputElement).value;
              const file = (elements.namedItem("logo") as HTMLInputElement).files?.[0];
              const remove = (elements.namedItem("removeLogo") as HTMLInputElement | null)?.checked;
              if (file && file.size > MAX_LOGO_BYTES) return setFileError(`The logo may be at most ${MAX_LOGO_BYTES / 1024} KB.`);
              setFileError(undefined);
              form.submit({ agencyName, logo: remove ? null : file ? await base64Of(file) : undefined, version: branding.updatedAt });
            }}
          >
            <Field id="agency-name" label="Agency name" error={form.error("agencyName")}>
              <Input id="agency-name" name="agencyName" maxLength={100} defaultValue={branding.agencyName ?? ""} invalid={!!form.error("agencyName")} />
            </Field>
            <Field
              id="agency-logo"
              label="Logo"
              hint={branding.logoType ? `Current: ${branding.logoType.replace("image/", "").toUpperCase()}, ${Math.ceil(branding.logoBytes / 1024)} KB. Choose a file to replace it.` : `PNG, JPEG or WebP, at most ${MAX_LOGO_BYTES / 1024} KB.`}
              error={fileError ?? form.error("logo")}
            >
              <input id="agency-logo" name="logo" type="file" accept={LOGO_TYPES.join(",")} className="block text-sm text-slate-700" />
            </Field>
            {branding.logoType && (
              <label className="flex items-center gap-2 text-sm text-slate-700">
                <input type="checkbox" name="removeLogo" /> Remove the logo
              </label>
            )}
            <Button type="submit" pending={form.pending}>Save branding</Button>
          </form>
        )}
      </Card>
    </section>
  );
}
