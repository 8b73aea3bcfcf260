#!/usr/bin/env node
// npm run test:serverless-shop: the third host (examples/serverless-shop: Next.js, Drizzle on
// PostgreSQL, Better Auth, a card stand-in confirmed in the browser, no resident process) end to
// end, as an integrator outside this repository has it (scripts/lib/example-host.mjs): the kit
// and the Drizzle adapter from their tarballs, installed offline outside the repository and built
// there; a database of its own on the project's PostgreSQL (scripts/postgres.mjs, POSTGRES_PORT),
// migrated by the host's deploy step (`npm run db:migrate`) before it starts; shop on 5610,
// emulator on 5620 (ports 5600-5699); go-live scenarios 1-3, its own journeys (they call the job
// routes as a scheduler would), then the readiness report with --strict --active from the
// emulator's tarball. `-- --no-build` reuses the last build.
import { runExampleHost } from "./lib/example-host.mjs";
import { postgresUrl, resetDatabases, startPostgres, stopPostgres } from "./postgres.mjs";

const DATABASE = "serverless_shop";
const startedPostgres = startPostgres();
let status = 1;
try {
  await resetDatabases([DATABASE]);
  status = await runExampleHost({
    name: "serverless-shop",
    packages: {
      "@service-integration/kit": "packages/kit",
      "@service-integration/drizzle-adapter": "packages/drizzle-adapter",
    },
    shopPort: 5610,
    emulatorPort: 5620,
    readyPath: "/anmelden",
    env: ({ shopUrl }) => ({
      SHOP_URL: shopUrl,
      DATABASE_URL: postgresUrl(DATABASE),
      BETTER_AUTH_SECRET: "serverless-shop-test-auth-secret-0123456789",
      GUEST_IDENTITY_SECRET: "serverless-shop-test-guest-secret-0123456789",
      JOBS_SECRET: "serverless-shop-test-jobs-secret-0123456789",
      SHOP_CUSTOMER_PASSWORD: "correct horse battery staple",
      // The tests run on plain HTTP (localhost); every other deployment keeps Secure cookies.
      SHOP_INSECURE_COOKIES: "1",
    }),
    // The journeys open the guest cookie with the kit's own createGuestIdentity (its /server
    // entry, which only loads under React's server condition) to declare the raw identity.
    journeyEnv: { NODE_OPTIONS: "--conditions=react-server" },
    // The deploy step before a release: migrations and seed, never in a request.
    beforeStart: ({ appShop, run }) =>
      run("npm", ["run", "--silent", "db:migrate"], { cwd: appShop }),
  });
} finally {
  if (startedPostgres) stopPostgres();
}
process.exit(status);
