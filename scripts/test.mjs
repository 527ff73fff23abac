// `npm test` on a fresh clone: install what is missing, then lint, type-check and run every
// suite (unit, integration against the local services, browser) on the pinned Node 24.
import { ensureInstalled, runNpm } from "./ensure-installed.mjs";

ensureInstalled();
runNpm(["run", "--silent", "lint"], "Lint and format check (Biome)");
runNpm(["run", "--silent", "typecheck"], "Type check (tsc)");
runNpm(["run", "--silent", "test:all"], "Tests (unit, integration, browser)");
