import { request } from 'node:http';
import { createBenchAccount } from './lib/account.ts';
import { createBenchEmail } from './lib/email-fixture.ts';
import { startLetterset } from './lib/servers.ts';
process.env.NODE_OPTIONS = '--cpu-prof --cpu-prof-dir=/tmp/prof';
const letterset = await startLetterset(3198);
delete process.env.NODE_OPTIONS;
const account = await createBenchAccount(letterset.origin);
const email = await createBenchEmail(letterset.origin, account);
const agent = new (await import('node:http')).Agent({ keepAlive: true, maxSockets: 1 });
function get(url: string, headers: Record<string, string> = {}) {
  return new Promise<number>((resolve, reject) => {
    const started = process.hrtime.bigint();
    const req = request(url, { agent, headers }, (res) => {
      res.resume();
      res.on('end', () => resolve(Number(process.hrtime.bigint() - started) / 1e6));
    });
    req.on('error', reject);
    req.end();
  });
}
const routes = {
  email: [email.url, account.headers],
} as const;
const times: Record<string, number[]> = { readyz: [], me: [], email: [] };
for (let block = 0; block < 150; block++)
  for (const [name, [url, headers]] of Object.entries(routes))
    for (let i = 0; i < 50; i++) times[name]!.push(await get(url, headers as Record<string, string>));
for (const [name, list] of Object.entries(times)) {
  const sorted = list.slice(500).sort((a, b) => a - b);
  console.log(name, 'median', sorted[Math.floor(sorted.length / 2)]!.toFixed(3), 'ms  p90', sorted[Math.floor(sorted.length * 0.9)]!.toFixed(3));
}
await letterset.stop();
process.exit(0);
