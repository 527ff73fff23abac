"use client";

import { Select } from "@/components/ui/select";
import type { ClipOptions } from "@/engine/clip-options";
import { countChoices, lengthChoices, lengthValue, parseChoice } from "./clip-options-choices";

/**
 * How many clips a video gets at most, and how long. Each select is as wide as its longest
 * choice: a fixed width cut "Up to 5 clips (default)" short.
 */
export function ClipOptionsPicker({
  value,
  defaults,
  onChange,
  note,
}: {
  value: ClipOptions;
  defaults: ClipOptions;
  onChange: (next: ClipOptions) => void;
  /** A line beside the choices, e.g. what they apply to. */
  note?: string;
}) {
  const change = (count: string, length: string) => {
    const next = parseChoice(defaults, count, length);
    if (next) onChange(next);
  };
  return (
    <fieldset className="flex flex-col gap-3 sm:flex-row sm:items-end">
      <legend className="sr-only">Clips asked for</legend>
      <Select
        label="Clips per video"
        options={countChoices(defaults)}
        value={String(value.count)}
        onChange={(event) => change(event.target.value, lengthValue(value))}
      />
      <Select
        label="Clip length"
        options={lengthChoices(defaults)}
        value={lengthValue(value)}
        onChange={(event) => change(String(value.count), event.target.value)}
      />
      {note && <p className="text-sm text-slate-500 sm:pb-2.5">{note}</p>}
    </fieldset>
  );
}
