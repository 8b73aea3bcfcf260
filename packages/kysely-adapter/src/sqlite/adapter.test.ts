// The adapter's own checks on SQLite (test-support/adapter-checks.ts).
import { adapterChecks } from "../test-support/adapter-checks.js";
import { sqliteTestDatabase } from "../test-support/host.js";

adapterChecks("SQLite", () => sqliteTestDatabase());
