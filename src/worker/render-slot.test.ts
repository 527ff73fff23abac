import { describe, expect, it } from "vitest";
import { createSlot } from "./render-slot";

const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

describe("createSlot", () => {
  it("runs one task at a time, the waiting ones in the order they asked", async () => {
    const slot = createSlot();
    const events: string[] = [];
    let inside = 0;
    let mostInside = 0;
    const task = (name: string) =>
      slot.run(async () => {
        inside++;
        mostInside = Math.max(mostInside, inside);
        events.push(`${name} start`);
        await tick();
        events.push(`${name} end`);
        inside--;
        return name;
      });
    expect(await Promise.all([task("a"), task("b"), task("c")])).toEqual(["a", "b", "c"]);
    expect(mostInside).toBe(1);
    expect(events).toEqual(["a start", "a end", "b start", "b end", "c start", "c end"]);
  });

  it("lets a waiting task go when its signal aborts, and frees the slot after a failure", async () => {
    const slot = createSlot();
    let releaseFirst = () => {};
    const first = slot.run(() => new Promise<void>((resolve) => (releaseFirst = resolve)));
    const abort = new AbortController();
    let secondRan = false;
    const second = slot.run(async () => {
      secondRan = true;
    }, abort.signal);
    abort.abort(new Error("shutting down"));
    await expect(second).rejects.toThrow("shutting down");
    releaseFirst();
    await first;
    expect(secondRan).toBe(false);
    await expect(slot.run(() => Promise.reject(new Error("ffmpeg failed")))).rejects.toThrow("ffmpeg failed");
    expect(await slot.run(async () => "free again")).toBe("free again");
  });
});
