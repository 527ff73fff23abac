// Tests import server modules directly; the real `server-only` throws outside React Server
// Components, so the test resolver swaps in this empty module.
export {};
