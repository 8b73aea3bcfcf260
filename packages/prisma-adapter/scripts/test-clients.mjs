// Generates the test shop's Prisma clients (src/test-support/generated/, not kept in git): the
// root's `node scripts/prisma.mjs generate` runs it.
import { generateTestClients } from "./prisma-tools.mjs";

generateTestClients();
