// The packed tool's entry (emulator/scripts/build.mjs bundles it as dist/cli.js, the
// `service-emulator` bin): `service-emulator readiness …` prints the readiness report
// (readiness/command.ts, the same command as `npm run readiness`); anything else starts the
// emulator (main.ts, which reads its own options).
export {}; // a module: its top-level awaits pick what to run

if (process.argv[2] === "readiness") {
  const { runReadiness } = await import("./readiness/command");
  process.exitCode = await runReadiness(process.argv.slice(3));
} else {
  await import("./main");
}
