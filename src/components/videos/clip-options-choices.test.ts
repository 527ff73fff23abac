import { describe, expect, it } from "vitest";
import {
  countChoices,
  describeClipRequest,
  lengthChoices,
  parseChoice,
  readRememberedClipOptions,
  rememberClipOptions,
} from "./clip-options-choices";

const defaults = { count: 5, minSeconds: 15, maxSeconds: 60 };

function memoryStore() {
  const map = new Map<string, string>();
  return {
    getItem: (key: string) => map.get(key) ?? null,
    setItem: (key: string, value: string) => void map.set(key, value),
    removeItem: (key: string) => void map.delete(key),
  };
}

describe("clip options choices", () => {
  it("offers counts and lengths, the defaults marked and first for the length", () => {
    expect(countChoices(defaults).map((choice) => choice.label)).toEqual([
      "Up to 1 clip",
      "Up to 3 clips",
      "Up to 5 clips (default)",
      "Up to 10 clips",
      "Up to 15 clips",
      "Up to 20 clips",
    ]);
    expect(lengthChoices(defaults).map((choice) => choice.label)).toEqual([
      "15–60 s (default)",
      "Short: 15–30 s",
      "30–60 s",
      "60–90 s",
      "Long: 90 s–3 min",
    ]);
  });

  it("turns a choice back into options, and refuses a value no choice has", () => {
    expect(parseChoice(defaults, "10", "60-90")).toEqual({ count: 10, minSeconds: 60, maxSeconds: 90 });
    expect(parseChoice(defaults, "7", "60-90")).toBeNull();
    expect(parseChoice(defaults, "5", "1-500")).toBeNull();
  });

  it("remembers the last choice, and falls back to the defaults for anything else stored", () => {
    const store = memoryStore();
    expect(readRememberedClipOptions(store, defaults)).toEqual(defaults);
    rememberClipOptions(store, { count: 3, minSeconds: 15, maxSeconds: 30 });
    expect(readRememberedClipOptions(store, defaults)).toEqual({ count: 3, minSeconds: 15, maxSeconds: 30 });
    store.setItem("truss:clip-options", JSON.stringify({ count: 99, minSeconds: 1, maxSeconds: 2 }));
    expect(readRememberedClipOptions(store, defaults)).toEqual(defaults);
    store.setItem("truss:clip-options", "{not json");
    expect(readRememberedClipOptions(store, defaults)).toEqual(defaults);
  });

  it("says what a video was asked for, and what it got", () => {
    expect(describeClipRequest(defaults, null)).toBe("Up to 5 clips, 15–60 s each");
    expect(describeClipRequest(defaults, 2)).toBe("2 clips (up to 5 asked, 15–60 s each)");
    expect(describeClipRequest({ count: 1, minSeconds: 30, maxSeconds: 60 }, 3, 2)).toBe(
      "3 clips (up to 1 asked, 30–60 s each; 2 edited by you)",
    );
    // The one clip is the creator's 13 s cut: it is not said to be 30–60 s long.
    expect(describeClipRequest({ count: 1, minSeconds: 30, maxSeconds: 60 }, 1, 1)).toBe(
      "1 clip (up to 1 asked, 30–60 s each; 1 edited by you)",
    );
    expect(describeClipRequest({ count: 1, minSeconds: 90, maxSeconds: 180 }, 1)).toBe(
      "1 clip, 90 s–3 min each",
    );
  });
});
