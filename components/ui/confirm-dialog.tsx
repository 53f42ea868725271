"use client";
import { useCallback, useState, type ReactNode } from "react";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";

export type ConfirmProps = {
  open: boolean;
  title: string;
  children: ReactNode;
  /** The confirm button's text: the action, e.g. "Delete", "Retry 235 captures". */
  confirmLabel: string;
  cancelLabel?: string;
  /** A red confirm button for what cannot be undone. */
  destructive?: boolean;
  /** The action is running: the confirm button spins and cannot be pressed again. */
  pending?: boolean;
  /** Disables confirming (the dialog's facts are still loading, say). */
  disabled?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
};

/**
 * The product's own confirmation, in place of the browser's `confirm()`: it can say what an
 * action costs, looks like the rest of the app, and is safe by default: Cancel has the focus, so
 * Enter or Escape right after it opens changes nothing.
 */
export function ConfirmDialog({ open, title, children, confirmLabel, cancelLabel = "Cancel", destructive, pending, disabled, onConfirm, onCancel }: ConfirmProps) {
  return (
    <Dialog open={open} onClose={onCancel} title={title}>
      <div className="space-y-3 text-sm text-slate-700">{children}</div>
      <div className="mt-6 flex flex-wrap justify-end gap-2">
        <Button variant="secondary" onClick={onCancel} data-autofocus>
          {cancelLabel}
        </Button>
        <Button variant={destructive ? "danger" : "primary"} pending={pending} disabled={disabled} onClick={onConfirm}>
          {confirmLabel}
        </Button>
      </div>
    </Dialog>
  );
}

type Question = Omit<ConfirmProps, "open" | "pending" | "disabled" | "onConfirm" | "onCancel" | "children"> & { body: ReactNode };

/**
 * For a confirmation before a one-click action: `ask(question, action)` opens the dialog and runs
 * `action` when confirmed; render `dialog` once in the component.
 */
export function useConfirm() {
  const [asked, setAsked] = useState<(Question & { action: () => void }) | null>(null);
  const ask = useCallback((question: Question, action: () => void) => setAsked({ ...question, action }), []);
  const dialog = (
    <ConfirmDialog
      open={asked !== null}
      title={asked?.title ?? ""}
      confirmLabel={asked?.confirmLabel ?? ""}
      cancelLabel={asked?.cancelLabel}
      destructive={asked?.destructive}
      onCancel={() => setAsked(null)}
      onConfirm={() => {
        asked?.action();
        setAsked(null);
      }}
    >
      {asked?.body}
    </ConfirmDialog>
  );
  return [ask, dialog] as const;
}
