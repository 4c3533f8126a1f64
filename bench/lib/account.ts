/** Sets up an organization on a fresh Letterset server and answers an API key's headers for it. */
export async function createBenchAccount(origin: string): Promise<Record<string, string>> {
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
  return { authorization: `Bearer ${key}` };
}
