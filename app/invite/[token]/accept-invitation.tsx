"use client";
import { useMutation } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { toast } from "@/lib/browser/toast";
import { Button } from "@/components/ui/button";
import { acceptInvitationAction } from "@/lib/actions/auth";
import { unwrap } from "@/lib/browser/action-result";

export function AcceptInvitation({ token }: { token: string }) {
  const router = useRouter();
  const accept = useMutation({
    mutationFn: async () => unwrap(await acceptInvitationAction({ inviteToken: token })),
    onSuccess: () => {
      toast.success("Welcome aboard");
      router.replace("/");
      router.refresh();
    },
    onError: (error) => toast.error(error.message),
  });
  return (
    <Button onClick={() => accept.mutate()} pending={accept.isPending}>
      Accept invitation
    </Button>
  );
}
