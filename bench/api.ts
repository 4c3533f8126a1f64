/**
 * API throughput against a hello-world Fastify route measured in the same run on the same
 * machine: the ratio is what to compare across machines and changes.
 *   npm run bench            (BENCH_SECONDS, BENCH_CONNECTIONS, BENCH_DATABASE_URL to tune)
 *   BENCH_ONLY=me,PATCH      only the routes whose label holds one of these words (and hello-world)
 *   BENCH_PORT=3200          where the two servers listen (this port and the next), to run beside another
 */
import path from 'node:path';
import { createBenchAccount } from './lib/account.ts';
import { createBenchEmails } from './lib/email-fixture.ts';
import { connections, type LoadResult, type LoadTarget, measure, printTable } from './lib/load.ts';
import { renderRequestBodies } from './lib/render-fixture.ts';
import { startLetterset, startServer } from './lib/servers.ts';

const firstPort = Number(process.env.BENCH_PORT ?? 3101);
const only = process.env.BENCH_ONLY?.split(',').map((word) => word.trim().toLowerCase());
const helloWorld = await startServer(path.join(import.meta.dirname, 'servers/hello-world.ts'), {
  port: firstPort,
  readyPath: '/hello',
});
const letterset = await startLetterset(firstPort + 1);
try {
  const baseline = await measure({ label: 'hello-world GET /hello', url: `${helloWorld.origin}/hello` });
  const account = await createBenchAccount(letterset.origin);
  const [email, ...otherEmails] = await createBenchEmails(letterset.origin, account, connections);
  if (!email) throw new Error('no bench email');
  const renders = await renderRequestBodies(letterset.origin, account);
  const targets: LoadTarget[] = [
    { label: 'Letterset GET /healthz', url: `${letterset.origin}/healthz` },
    { label: 'Letterset GET /readyz (database)', url: `${letterset.origin}/readyz` },
    {
      label: 'Letterset GET /api/v1/me (API key)',
      url: `${letterset.origin}/api/v1/me`,
      headers: account.headers,
    },
    {
      label: 'Letterset GET /emails/{id} (20 instances, 3 locales)',
      url: `${letterset.origin}${email.path}`,
      headers: account.headers,
    },
    // Reads of one email under way together are answered once; here each asks for another email.
    {
      label: `Letterset GET /emails/{id}, ${connections} emails in turn`,
      url: `${letterset.origin}${email.path}`,
      headers: account.headers,
      rotatingPaths: [email, ...otherEmails].map(({ path }) => path),
    },
    {
      label: 'Letterset PATCH /emails/{id} (20 instances, values changed)',
      url: `${letterset.origin}${email.path}`,
      method: 'PATCH',
      headers: { ...account.headers, 'content-type': 'application/json' },
      alternatingBodies: email.patchBodies,
    },
    // Every request renders different content: no answer can be reused for another.
    {
      label: 'Letterset POST /renders (20 components, each request distinct)',
      url: renders.url,
      method: 'POST',
      headers: { ...account.headers, 'content-type': 'application/json' },
      bodyFor: renders.body,
    },
  ];
  const results: LoadResult[] = [];
  for (const target of targets) {
    const label = target.label.toLowerCase();
    if (only && !only.some((word) => label.includes(word))) continue;
    results.push(await measure(target));
  }
  printTable(baseline, results);
} finally {
  await Promise.all([helloWorld.stop(), letterset.stop()]);
}
