"use client";
import { useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useTransition } from "react";
import { Button } from "@/components/ui/button";
import { signOutAction } from "@/lib/actions/auth";
import { ThemeSwitch } from "./theme-switch";

export function UserMenu({ name, email, role }: { name: string; email: string; role: string }) {
  const router = useRouter();
  const queryClient = useQueryClient();
  const [pending, startTransition] = useTransition();
  return (
    <div className="border-t border-slate-200 pt-4">
      <p className="truncate text-sm font-medium text-slate-900">{name}</p>
      <p className="truncate text-xs text-slate-500">
        {email} · {role}
      </p>
      <ThemeSwitch />
      <Button
        variant="ghost"
        size="sm"
        className="mt-2 min-h-11 md:min-h-0"
        pending={pending}
        onClick={() =>
          startTransition(async () => {
            await signOutAction();
            queryClient.clear();
            router.replace("/login");
            router.refresh();
          })
        }
      >
        Sign out
      </Button>
    </div>
  );
}
