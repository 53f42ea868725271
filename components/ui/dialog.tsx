"use client";
import { useEffect, useRef, type ReactNode } from "react";
import { Button } from "@/components/ui/button";

/**
 * A modal on the native <dialog>: the browser traps focus, closes on Escape and restores focus
 * to the opener, so keyboard users get the right behaviour without a library.
 */
const widths = { md: "max-w-lg", lg: "max-w-2xl", xl: "max-w-4xl" };

export function Dialog({ open, onClose, title, children, size = "md" }: { open: boolean; onClose: () => void; title: string; children: ReactNode; size?: keyof typeof widths }) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      dialog.showModal();
      // React's autoFocus runs before showModal() and is lost; focus the element marked
      // data-autofocus (a confirmation's Cancel), else the first field, so typing goes into the
      // form, not onto the close button.
      (dialog.querySelector<HTMLElement>("[data-autofocus]") ?? dialog.querySelector<HTMLElement>("input:not([type=hidden]):not([readonly]), textarea, select"))?.focus();
    }
    if (!open && dialog.open) dialog.close();
  }, [open]);
  return (
    <dialog
      ref={ref}
      onClose={onClose}
      aria-labelledby="dialog-title"
      className={`m-auto w-full ${widths[size]} rounded-lg p-0 shadow-xl backdrop:bg-black/40`}
    >
      {open && (
        <div className="p-6">
          <div className="mb-4 flex items-start justify-between">
            <h2 id="dialog-title" className="text-base font-semibold text-slate-900">
              {title}
            </h2>
            <button type="button" onClick={onClose} className="rounded p-1 text-slate-400 hover:text-slate-600" aria-label="Close">
              ✕
            </button>
          </div>
          {children}
        </div>
      )}
    </dialog>
  );
}

/**
 * A dialog form's buttons: Cancel (closes without saving) and the submit button, right-aligned.
 * `className` adds to the row (a border above, or sticky at the bottom of a long form).
 */
export function FormActions({ onCancel, pending, submitLabel, className = "" }: { onCancel: () => void; pending: boolean; submitLabel: ReactNode; className?: string }) {
  return (
    <div className={`flex justify-end gap-2 ${className}`}>
      <Button type="button" variant="secondary" onClick={onCancel}>
        Cancel
      </Button>
      <Button type="submit" pending={pending}>
        {submitLabel}
      </Button>
    </div>
  );
}

/**
 * A dialog around a form read on submit: no browser validation (the zod schema's errors show
 * inline), the fields as FormData, and Cancel and the submit button at the end.
 */
export function FormDialog({
  open,
  onClose,
  title,
  onSubmit,
  pending,
  submitLabel,
  children,
}: {
  open: boolean;
  onClose: () => void;
  title: string;
  onSubmit: (data: FormData) => void;
  pending: boolean;
  submitLabel: ReactNode;
  children: ReactNode;
}) {
  return (
    <Dialog open={open} onClose={onClose} title={title}>
      <form
        noValidate
        className="space-y-4"
        onSubmit={(event) => {
          event.preventDefault();
          onSubmit(new FormData(event.currentTarget));
        }}
      >
        {children}
        <FormActions onCancel={onClose} pending={pending} submitLabel={submitLabel} />
      </form>
    </Dialog>
  );
}
