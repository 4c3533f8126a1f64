/**
 * Comments at the size review reaches: the comment list of an email with 500 comments (threads,
 * replies, pins, mentions) against a hello-world Fastify route measured in the same run, and the
 * time a new comment takes to reach 50 people viewing the email (server-sent events), from the
 * moment its POST leaves the author to the moment each viewer's stream delivers the event.
 *   npm run bench:comments -w @letterset/bench      (BENCH_ROUNDS for the number of comments timed)
 */
import path from 'node:path';
import { createBenchAccount } from './lib/account.ts';
import { createBenchEmails } from './lib/email-fixture.ts';
import { Viewer } from './lib/event-viewer.ts';
import { measure, printTable } from './lib/load.ts';
import { startLetterset, startServer } from './lib/servers.ts';

const commentCount = 500;
const viewerCount = 50;
const rounds = Number(process.env.BENCH_ROUNDS ?? 100);
const locale = 'en-US';

const helloWorld = await startServer(path.join(import.meta.dirname, 'servers/hello-world.ts'), {
  port: 3111,
  readyPath: '/hello',
});
const letterset = await startLetterset(3112);
const viewers: Viewer[] = [];
try {
  const account = await createBenchAccount(letterset.origin);
  const [email] = await createBenchEmails(letterset.origin, account, 1);
  if (!email) throw new Error('no bench email');
  const emailUrl = `${letterset.origin}${email.path}`;
  const instanceIds = await componentInstanceIds(emailUrl, account.headers);
  const me = (await (await fetch(`${letterset.origin}/api/v1/me`, { headers: account.headers })).json()) as {
    user: { id: number; first_name: string; last_name: string };
  };
  const post = async (body: object) => {
    const response = await fetch(`${emailUrl}/email_comments`, {
      method: 'POST',
      headers: { ...account.headers, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`comment failed: ${response.status} ${await response.text()}`);
    return (await response.json()) as { id: number };
  };

  // One thread in five has replies; one first comment in three is pinned; one in ten mentions someone.
  let threadId = 0;
  for (let number = 1; number <= commentCount; number++) {
    const reply = number % 5 !== 1 && number % 5 !== 0 && threadId !== 0 && number % 2 === 0;
    const mention =
      number % 10 === 0 ? ` @[${me.user.first_name} ${me.user.last_name}](user:${me.user.id})` : '';
    const body = `Comment ${number}: the headline reads long on mobile, shorten it?${mention}`;
    if (reply) {
      await post({ locale, body, parent_id: threadId });
      continue;
    }
    const pinned = number % 3 === 0;
    const comment = await post({
      locale,
      body,
      ...(pinned
        ? {
            pin_data: {
              component_instance_id: instanceIds[number % instanceIds.length],
              branch_key: null,
              coordinates: { center_offset_x_px: (number % 300) - 150, y: number % 200 },
            },
          }
        : {}),
    });
    threadId = comment.id;
  }

  const listUrl = `${emailUrl}/email_comments?locale=${locale}&per=100`;
  const firstPage = (await (await fetch(listUrl, { headers: account.headers })).json()) as {
    pagination: { total: number };
  };
  if (firstPage.pagination.total !== commentCount)
    throw new Error(`expected ${commentCount} comments, the list says ${firstPage.pagination.total}`);

  const baseline = await measure({ label: 'hello-world GET /hello', url: `${helloWorld.origin}/hello` });
  const results = [
    await measure({
      label: `GET /email_comments?per=100, page 1 (${commentCount} comments)`,
      url: listUrl,
      headers: account.headers,
    }),
    // What the Review panel loads: every page of the list, pages asked for in turn.
    await measure({
      label: `GET /email_comments?per=100, pages 1-5 in turn (${commentCount} comments)`,
      url: listUrl,
      headers: account.headers,
      rotatingPaths: [1, 2, 3, 4, 5].map(
        (page) => `${new URL(emailUrl).pathname}/email_comments?locale=${locale}&per=100&page=${page}`,
      ),
    }),
  ];
  printTable(baseline, results);

  for (let number = 0; number < viewerCount; number++)
    viewers.push(await Viewer.open(`${emailUrl}/events`, account.headers));
  const perViewer: number[] = [];
  const lastViewer: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const arrivals = viewers.map((viewer) => viewer.nextCommentsChanged());
    const sent = performance.now();
    await post({ locale, body: `Live comment ${round}` });
    const times = (await Promise.all(arrivals)).map((arrived) => arrived - sent);
    perViewer.push(...times);
    lastViewer.push(Math.max(...times));
  }
  console.table([
    { measure: 'a viewer hears of the comment', ...percentiles(perViewer) },
    { measure: `all ${viewerCount} viewers have heard of it`, ...percentiles(lastViewer) },
  ]);
  console.log(
    `(${rounds} comments, each timed from its POST leaving the author to the event reaching each of ` +
      `${viewerCount} open streams, on ${process.version})`,
  );
} finally {
  for (const viewer of viewers) viewer.close();
  await Promise.all([helloWorld.stop(), letterset.stop()]);
}

function percentiles(samples: number[]) {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (fraction: number) =>
    sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))] ?? 0;
  return { 'p50 ms': at(0.5).toFixed(1), 'p99 ms': at(0.99).toFixed(1), 'max ms': at(1).toFixed(1) };
}

async function componentInstanceIds(emailUrl: string, headers: Record<string, string>): Promise<string[]> {
  const email = (await (await fetch(emailUrl, { headers })).json()) as {
    email_content: { component_instances: { id: string }[] };
  };
  return email.email_content.component_instances.map((instance) => instance.id);
}
