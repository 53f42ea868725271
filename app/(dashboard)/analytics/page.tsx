import { redirect } from "next/navigation";

// The analytics overview lives at the dashboard's root.
export default function Page() {
  redirect("/");
}
