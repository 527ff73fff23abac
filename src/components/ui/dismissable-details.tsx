"use client";

import { usePathname } from "next/navigation";
import { type ComponentProps, useEffect, useRef } from "react";

/**
 * A <details> used as a popover (a menu, a small form) that closes as popovers do: on Escape,
 * giving the focus back to its summary; on a click, or the focus moving, outside it; and when the
 * app moves to another page (a popover in the layout would otherwise stay open over the next
 * one). Without JavaScript it is still a plain <details> that opens and closes.
 */
export function DismissableDetails(props: Omit<ComponentProps<"details">, "ref">) {
  const ref = useRef<HTMLDetailsElement>(null);
  const pathname = usePathname();

  useEffect(() => {
    const details = ref.current;
    if (!details) return;
    const isOutside = (target: EventTarget | null) => !(target instanceof Node && details.contains(target));
    const closeIfOutside = (event: Event) => {
      if (details.open && isOutside(event.target)) details.open = false;
    };
    const closeOnEscape = (event: KeyboardEvent) => {
      if (event.key !== "Escape" || !details.open) return;
      // Escape belongs to whatever else has the focus (a dialog, another field); a click on the
      // summary leaves the focus on the page's body in some browsers, so that counts as ours.
      const focused = document.activeElement;
      if (focused && focused !== document.body && isOutside(focused)) return;
      details.open = false;
      details.querySelector("summary")?.focus();
    };
    document.addEventListener("pointerdown", closeIfOutside);
    document.addEventListener("focusin", closeIfOutside);
    document.addEventListener("keydown", closeOnEscape);
    return () => {
      document.removeEventListener("pointerdown", closeIfOutside);
      document.removeEventListener("focusin", closeIfOutside);
      document.removeEventListener("keydown", closeOnEscape);
    };
  }, []);

  // biome-ignore lint/correctness/useExhaustiveDependencies: the page changing is what closes it.
  useEffect(() => {
    if (ref.current) ref.current.open = false;
  }, [pathname]);

  return <details ref={ref} {...props} />;
}
