import type { ReactNode } from "react";
import { Logo } from "@/components/ui/logo";

export default function LoginLayout({ children }: { children: ReactNode }) {
  return (
    <div className="flex min-h-screen flex-col items-center justify-center px-4 py-12">
      <header className="mb-8">
        <Logo />
      </header>
      <main className="w-full max-w-md rounded-2xl border border-slate-200 bg-white px-6 py-8 shadow-sm sm:px-8">
        {children}
      </main>
      <footer className="mt-6 text-center text-xs text-slate-500">
        No passwords: we email you a link that signs you in.
      </footer>
    </div>
  );
}
