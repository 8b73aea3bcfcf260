// `npm run readiness -- --merchant m_demo`: the readiness report's command (command.ts, which
// says its options and exit codes) run from this repository's sources. The emulator's tarball
// runs the same command as `npx service-emulator readiness …` (bin.ts).
import { runReadiness } from "./command";

process.exitCode = await runReadiness(process.argv.slice(2));
