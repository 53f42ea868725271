"use client";
import { toast } from "@/lib/browser/toast";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";

/** A webhook's signing secret, shown once after creation or rotation. */
export function SecretDialog({ channelName, secret, onClose }: { channelName: string; secret: string; onClose: () => void }) {
  return (
    <Dialog open onClose={onClose} title={`Signing secret for ${channelName}`}>
      <div className="space-y-4 text-sm text-slate-700">
        <p>
          Copy it now: it is not shown again. Your receiver verifies each request&apos;s <code>webhook-signature</code> with it (Standard Webhooks: HMAC-SHA256 over
          id, timestamp and body).
        </p>
        <label htmlFor="webhook-secret" className="block text-sm font-medium text-slate-700">
          Signing secret
        </label>
        <div className="flex gap-2">
          <input id="webhook-secret" readOnly value={secret} className="block w-full rounded-md bg-slate-50 px-3 py-2 font-mono text-xs ring-1 ring-slate-300" onFocus={(e) => e.target.select()} />
          <Button
            type="button"
            variant="secondary"
            onClick={() => navigator.clipboard.writeText(secret).then(() => toast.success("Secret copied"), () => toast.error("Could not copy; select the text and copy it"))}
          >
            Copy
          </Button>
        </div>
        <div className="flex justify-end">
          <Button type="button" onClick={onClose}>
            Done
          </Button>
        </div>
      </div>
    </Dialog>
  );
}
