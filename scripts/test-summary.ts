/**
 * Prints one closing line for CI, `tests: N passed, N failed, N skipped`, totalled over the
 * JSON reports of every test run (Vitest and Playwright), and exits 1 if a report is missing.
 *   node scripts/test-summary.ts report.json [report.json ...]
 */
import { readFile } from 'node:fs/promises';

interface Totals {
  passed: number;
  failed: number;
  skipped: number;
}

type VitestReport = {
  numPassedTests: number;
  numFailedTests: number;
  numPendingTests: number;
  numTodoTests: number;
};
type PlaywrightReport = { stats: { expected: number; unexpected: number; flaky: number; skipped: number } };

function totalsOf(report: VitestReport | PlaywrightReport): Totals {
  if ('stats' in report) {
    const { expected, unexpected, flaky, skipped } = report.stats;
    return { passed: expected, failed: unexpected + flaky, skipped };
  }
  return {
    passed: report.numPassedTests,
    failed: report.numFailedTests,
    skipped: report.numPendingTests + report.numTodoTests,
  };
}

const totals: Totals = { passed: 0, failed: 0, skipped: 0 };
let missing = false;
for (const file of process.argv.slice(2)) {
  try {
    const counts = totalsOf(JSON.parse(await readFile(file, 'utf8')));
    totals.passed += counts.passed;
    totals.failed += counts.failed;
    totals.skipped += counts.skipped;
  } catch (error) {
    missing = true;
    console.error(`No readable test report at ${file}: ${(error as Error).message}`);
  }
}
console.log(`tests: ${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
if (missing || totals.failed > 0 || totals.passed === 0) process.exit(1);
