"use client";

import { useActionState } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Select } from "@/components/ui/select";
import { type ProfileFormState, type ProfileFormValues, updateProfileAction } from "./actions";

export function ProfileForm({
  email,
  displayName,
  timezone,
  emailWhenClipsReady,
  version,
  timezones,
}: {
  email: string;
  displayName: string | null;
  timezone: string;
  emailWhenClipsReady: boolean;
  version: number;
  timezones: string[];
}) {
  const [state, formAction, pending] = useActionState<ProfileFormState, FormData>(updateProfileAction, {
    status: "idle",
    version,
  });
  // After a save the fields show what it left (saved, or typed and refused); React resets the
  // fields to their defaults after the action, so these are the defaults. Keyed on them: a
  // <select> takes a new defaultValue only when it mounts.
  const values = ("values" in state && state.values) || {
    displayName: displayName ?? "",
    timezone,
    emailWhenClipsReady,
  };
  return (
    <form action={formAction} className="flex flex-col gap-5">
      <input type="hidden" name="expectedVersion" value={state.version} />
      <Input label="Email" value={email} disabled readOnly hint="You sign in with this address." />
      <ProfileFields key={JSON.stringify(values)} values={values} timezones={timezones} />
      {state.status === "error" && <Alert tone="danger">{state.message}</Alert>}
      {state.status === "saved" && <Alert tone="success">Profile saved.</Alert>}
      <div>
        <Button type="submit" loading={pending}>
          Save profile
        </Button>
      </div>
    </form>
  );
}

function ProfileFields({ values, timezones }: { values: ProfileFormValues; timezones: string[] }) {
  return (
    <>
      <Input
        label="Display name"
        name="displayName"
        defaultValue={values.displayName}
        maxLength={80}
        placeholder="How Truss greets you"
        autoComplete="name"
      />
      <Select
        label="Time zone"
        name="timezone"
        defaultValue={values.timezone}
        options={timezones.map((zone) => ({ value: zone, label: zone.replaceAll("_", " ") }))}
        hint="Dates in Truss are shown in this time zone."
      />
      <div className="flex items-start gap-3">
        <input
          id="email-when-clips-ready"
          type="checkbox"
          name="emailWhenClipsReady"
          defaultChecked={values.emailWhenClipsReady}
          aria-describedby="email-when-clips-ready-hint"
          className="mt-0.5 size-4 shrink-0 rounded border-slate-300 accent-brand-600"
        />
        <div className="flex flex-col gap-1">
          <label htmlFor="email-when-clips-ready" className="text-sm font-medium text-slate-800">
            Email me when a video's clips are ready
          </label>
          <p id="email-when-clips-ready-hint" className="text-sm text-slate-500">
            A long video takes a while. The email lists its best clips, or says why none could be made.
          </p>
        </div>
      </div>
    </>
  );
}
