/**
 * API throughput against a hello-world Fastify route measured in the same run on the same
 * machine: the ratio is what to compare across machines and changes.
 *   npm run bench            (BENCH_SECONDS, BENCH_CONNECTIONS, BENCH_DATABASE_URL to tune)
 */
import path from 'node:path';
import { createBenchAccount } from './lib/account.ts';
import { createBenchEmails } from './lib/email-fixture.ts';
import { connections, type LoadResult, measure, printTable } from './lib/load.ts';
import { renderRequestBodies } from './lib/render-fixture.ts';
import { startLetterset, startServer } from './lib/servers.ts';

const helloWorld = await startServer(path.join(import.meta.dirname, 'servers/hello-world.ts'), {
  port: 3101,
  readyPath: '/hello',
});
const letterset = await startLetterset(3102);
try {
  const baseline = await measure({ label: 'hello-world GET /hello', url: `${helloWorld.origin}/hello` });
  const account = await createBenchAccount(letterset.origin);
  const [email, ...otherEmails] = await createBenchEmails(letterset.origin, account, connections);
  if (!email) throw new Error('no bench email');
  const renders = await renderRequestBodies(letterset.origin, account);
  const results: LoadResult[] = [
    await measure({ label: 'Letterset GET /healthz', url: `${letterset.origin}/healthz` }),
    await measure({ label: 'Letterset GET /readyz (database)', url: `${letterset.origin}/readyz` }),
    await measure({
      label: 'Letterset GET /api/v1/me (API key)',
      url: `${letterset.origin}/api/v1/me`,
      headers: account.headers,
    }),
    await measure({
      label: 'Letterset GET /emails/{id} (20 instances, 3 locales)',
      url: `${letterset.origin}${email.path}`,
      headers: account.headers,
    }),
    // Reads of one email under way together are answered once; here each asks for another email.
    await measure({
      label: `Letterset GET /emails/{id}, ${connections} emails in turn`,
      url: `${letterset.origin}${email.path}`,
      headers: account.headers,
      rotatingPaths: [email, ...otherEmails].map(({ path }) => path),
    }),
    await measure({
      label: 'Letterset PATCH /emails/{id} (20 instances, values changed)',
      url: `${letterset.origin}${email.path}`,
      method: 'PATCH',
      headers: { ...account.headers, 'content-type': 'application/json' },
      alternatingBodies: email.patchBodies,
    }),
    // Every request renders different content: no answer can be reused for another.
    await measure({
      label: 'Letterset POST /renders (20 components, each request distinct)',
      url: renders.url,
      method: 'POST',
      headers: { ...account.headers, 'content-type': 'application/json' },
      bodyFor: renders.body,
    }),
  ];
  printTable(baseline, results);
} finally {
  await Promise.all([helloWorld.stop(), letterset.stop()]);
}
