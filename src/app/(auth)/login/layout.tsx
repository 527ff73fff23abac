import type { ReactNode } from "react";
import { CenteredPage } from "@/components/ui/centered-page";

export default function LoginLayout({ children }: { children: ReactNode }) {
  return (
    <CenteredPage footer="No passwords: we email you a link that signs you in.">{children}</CenteredPage>
  );
}
