import { lowerPasswordHashCostForTests } from '../security/passwords.ts';

// Every server test file runs this first (vitest.config.ts): sign-ins and new organizations
// hash passwords, and at the production cost those hashes were the suite's largest CPU cost.
lowerPasswordHashCostForTests();
