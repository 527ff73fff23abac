import Link from "next/link";

export default function HomePage() {
  return (
    <main className="mx-auto flex min-h-screen max-w-3xl flex-col justify-center gap-8 px-6 py-16">
      <div className="flex items-center gap-3">
        <div className="grid h-10 w-10 place-items-center rounded-xl bg-brand-600 font-bold text-white">
          T
        </div>
        <span className="text-xl font-semibold tracking-tight">Truss</span>
      </div>
      <h1 className="text-4xl font-bold tracking-tight text-slate-900 sm:text-5xl">
        Your best moments, found, scored and cut for vertical.
      </h1>
      <p className="max-w-xl text-lg text-slate-600">
        Upload a long video: a stream VOD, a podcast, a talk. Truss finds its highest-engagement moments,
        explains each virality score, and renders 9:16 clips ready to post to Shorts, TikTok, Twitch and
        Discord.
      </p>
      <div className="flex gap-3">
        <Link
          href="/login"
          className="rounded-lg bg-brand-600 px-5 py-2.5 font-medium text-white shadow-sm hover:bg-brand-700"
        >
          Sign in
        </Link>
        <Link
          href="/dashboard"
          className="rounded-lg px-5 py-2.5 font-medium text-slate-700 hover:bg-slate-100"
        >
          Go to dashboard →
        </Link>
      </div>
    </main>
  );
}
