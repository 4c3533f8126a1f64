export interface BenchAccount {
  headers: Record<string, string>;
  workspaceId: number;
}

/** Sets up an organization on a fresh Letterset server and answers an API key's headers for it. */
export async function createBenchAccount(origin: string): Promise<BenchAccount> {
  const json = { 'content-type': 'application/json' };
  const setup = await fetch(`${origin}/api/v1/setup`, {
    method: 'POST',
    headers: json,
    body: JSON.stringify({
      organization_name: 'Bench',
      first_name: 'Bench',
      last_name: 'Admin',
      email: 'bench@example.com',
      password: 'bench password 123',
    }),
  });
  if (!setup.ok) throw new Error(`setup failed: ${setup.status} ${await setup.text()}`);
  const cookie = setup.headers
    .getSetCookie()
    .map((value) => value.split(';')[0])
    .join('; ');
  const created = await fetch(`${origin}/api/v1/api_keys`, {
    method: 'POST',
    headers: { ...json, cookie, origin },
    body: JSON.stringify({ name: 'bench' }),
  });
  if (!created.ok) throw new Error(`API key creation failed: ${created.status} ${await created.text()}`);
  const { key } = (await created.json()) as { key: string };
  const headers = { authorization: `Bearer ${key}` };
  const me = (await (await fetch(`${origin}/api/v1/me`, { headers })).json()) as {
    workspaces: { id: number }[];
  };
  const workspaceId = me.workspaces[0]?.id;
  if (workspaceId === undefined) throw new Error('the bench account has no workspace');
  return { headers, workspaceId };
}
