import type { Page } from '@playwright/test';

// Chromium logs every 4xx answer as a console error. 401 (signed out), 409 (conflict) and 422
// (validation) are answers the app expects and shows to the user, so they are not problems.
const expectedApiAnswer = /^Failed to load resource: the server responded with a status of (401|409|422)\b/;

// Previews render in iframes sandboxed without scripts. Playwright's trace recorder injects a script
// into every frame, which Chromium blocks there and logs: the sandbox doing its job, not a problem.
const sandboxedPreviewScript =
  /^Blocked script execution in 'about:srcdoc' because the document's frame is sandboxed/;

/** Console errors and uncaught exceptions of a page, to assert there were none. */
export function collectPageProblems(page: Page): string[] {
  const problems: string[] = [];
  page.on('console', (message) => {
    const text = message.text();
    if (message.type() === 'error' && !expectedApiAnswer.test(text) && !sandboxedPreviewScript.test(text)) {
      problems.push(text);
    }
  });
  page.on('pageerror', (error) => problems.push(error.message));
  return problems;
}
