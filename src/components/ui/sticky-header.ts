/**
 * The scroll margin of anything the page scrolls into view (scrollIntoView, a #fragment): the
 * app's header sticks to the top of the window — 64 px from `md` up, about 110 px below, where
 * the navigation takes a row of its own — and would otherwise cover what was scrolled to.
 */
export const CLEAR_OF_STICKY_HEADER = "scroll-mt-32 md:scroll-mt-20";
