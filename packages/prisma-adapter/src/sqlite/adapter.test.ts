// The adapter's own checks (src/test-support/adapter-checks.ts) on SQLite.

import { runAdapterChecks } from "../test-support/adapter-checks.js";
import { testShopDdl } from "../test-support/ddl.js";
import { sqliteTestDatabases } from "../test-support/host.js";

// Made once, when the file is collected (the Prisma CLI takes seconds).
const shopDdl = testShopDdl("sqlite");
runAdapterChecks("sqlite", sqliteTestDatabases(shopDdl));
