import { expect } from '@playwright/test';

/** Where the e2e run's fake OpenAI-compatible server listens (see playwright.config.ts). */
const fakeModelUrl = `http://127.0.0.1:${Number(process.env.E2E_PORT ?? 4010) + 10}`;

/** A reply the fake model gives to the next request (the shapes of test/fakes/fake-openai.ts). */
export type FakeModelReply =
  | { kind: 'json'; value: unknown; delayMs?: number }
  | { kind: 'text'; text: string; delayMs?: number }
  | { kind: 'toolCalls'; calls: { name: string; arguments: Record<string, unknown> }[]; delayMs?: number }
  | { kind: 'error'; status: number; message?: string }
  | { kind: 'image'; delayMs?: number };

/** Queues the fake model's next answers; the server under test asks it as it would a real provider. */
export async function scriptFakeModel(...replies: FakeModelReply[]): Promise<void> {
  const response = await fetch(`${fakeModelUrl}/__fake/script`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(replies),
  });
  expect(response.ok, await response.text()).toBe(true);
}

export async function resetFakeModel(): Promise<void> {
  const response = await fetch(`${fakeModelUrl}/__fake/reset`, { method: 'POST' });
  expect(response.ok).toBe(true);
}

/** The requests the fake model answered since the last reset, as the server under test sent them. */
export async function fakeModelRequests(): Promise<{ path: string; body: unknown }[]> {
  const response = await fetch(`${fakeModelUrl}/__fake/seen`);
  expect(response.ok).toBe(true);
  return (await response.json()) as { path: string; body: unknown }[];
}
