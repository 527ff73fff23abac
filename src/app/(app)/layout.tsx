import type { ReactNode } from "react";
import { AppNav, type NavItem } from "@/components/ui/app-nav";
import { Logo } from "@/components/ui/logo";
import { OneAudiblePlayer } from "@/components/ui/one-audible-player";
import { UserMenu } from "@/components/ui/user-menu";
import { UploadsProvider } from "@/components/videos/uploads-provider";
import { signOutAction } from "@/server/auth/actions";
import { requireCurrentCreator } from "@/server/auth/get-current-creator";

const NAV_ITEMS: NavItem[] = [
  { href: "/dashboard", label: "Dashboard" },
  { href: "/videos", label: "Videos" },
  { href: "/clips", label: "Clips" },
  { href: "/settings", label: "Settings" },
];

/**
 * The signed-in app: header with navigation and the account menu. Checks the session itself.
 * Uploads live here, not in the videos page, so moving between pages does not stop them.
 */
export default async function AppLayout({ children }: { children: ReactNode }) {
  const creator = await requireCurrentCreator();
  return (
    <UploadsProvider>
      <div className="flex min-h-screen flex-col">
        <header className="sticky top-0 z-10 border-b border-slate-200 bg-white/90 backdrop-blur">
          <div className="mx-auto flex h-16 max-w-6xl items-center justify-between gap-4 px-4 sm:px-6 lg:px-8">
            <div className="flex items-center gap-8">
              <Logo href="/dashboard" />
              <div className="hidden md:block">
                <AppNav items={NAV_ITEMS} />
              </div>
            </div>
            <UserMenu displayName={creator.displayName} email={creator.email} signOutAction={signOutAction} />
          </div>
          <div className="overflow-x-auto border-t border-slate-100 px-2 py-1 md:hidden">
            <AppNav items={NAV_ITEMS} />
          </div>
        </header>
        <main className="mx-auto w-full max-w-6xl flex-1 px-4 py-8 sm:px-6 lg:px-8">{children}</main>
        <OneAudiblePlayer />
      </div>
    </UploadsProvider>
  );
}
