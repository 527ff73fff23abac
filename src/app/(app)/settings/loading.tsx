/** Placeholder while Settings loads its profile and token list. */
export default function SettingsLoading() {
  return (
    <div aria-busy="true" className="animate-pulse">
      <span className="sr-only">Loading settings…</span>
      <div className="mb-8 h-8 w-40 rounded-md bg-slate-200" />
      <div className="flex flex-col gap-6">
        {[0, 1, 2].map((index) => (
          <div key={index} className="h-48 rounded-xl border border-slate-200 bg-white" />
        ))}
      </div>
    </div>
  );
}
