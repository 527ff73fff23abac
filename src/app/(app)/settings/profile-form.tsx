"use client";

import { useActionState } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Select } from "@/components/ui/select";
import { type ProfileFormState, updateProfileAction } from "./actions";

export function ProfileForm({
  email,
  displayName,
  timezone,
  version,
  timezones,
}: {
  email: string;
  displayName: string | null;
  timezone: string;
  version: number;
  timezones: string[];
}) {
  const [state, formAction, pending] = useActionState<ProfileFormState, FormData>(updateProfileAction, {
    status: "idle",
    version,
  });
  return (
    <form action={formAction} className="flex flex-col gap-5">
      <input type="hidden" name="expectedVersion" value={state.version} />
      <Input label="Email" value={email} disabled readOnly hint="You sign in with this address." />
      <Input
        label="Display name"
        name="displayName"
        defaultValue={displayName ?? ""}
        maxLength={80}
        placeholder="How Truss greets you"
        autoComplete="name"
      />
      <Select
        label="Time zone"
        name="timezone"
        defaultValue={timezone}
        options={timezones.map((zone) => ({ value: zone, label: zone.replaceAll("_", " ") }))}
        hint="Dates in Truss are shown in this time zone."
      />
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
