// Vitest reporter for `npm run test:budget` (scripts/test-budget.mjs): writes every finished
// test's duration beside its own time limit (Vitest's default, or the one the test sets) to the
// JSON file named by TEST_BUDGET_OUT, for the script to hold each against a third of its limit.
import { writeFileSync } from "node:fs";
import path from "node:path";

export default class BudgetReporter {
  rows = [];

  onInit(vitest) {
    this.root = vitest.config.root;
  }

  onTestCaseResult(testCase) {
    const result = testCase.result();
    if (result.state === "skipped" || result.state === "pending") return;
    this.rows.push({
      file: path.relative(this.root, testCase.module.moduleId),
      name: testCase.fullName,
      state: result.state,
      duration: Math.round(testCase.diagnostic()?.duration ?? 0),
      limit: testCase.task.timeout,
    });
  }

  onTestRunEnd() {
    writeFileSync(process.env.TEST_BUDGET_OUT, JSON.stringify(this.rows, null, 1));
  }
}
