import Link from "next/link";

export function Logo({ href = "/" }: { href?: string }) {
  return (
    <Link
      href={href}
      className="flex items-center gap-2.5 rounded-md focus-visible:outline-2 focus-visible:outline-brand-600"
    >
      <span className="grid h-8 w-8 place-items-center rounded-lg bg-brand-600 text-sm font-bold text-white">
        T
      </span>
      <span className="text-lg font-semibold tracking-tight text-slate-900">Truss</span>
    </Link>
  );
}
