import { describe, expect, it, vi } from 'vitest';
import type { Layout } from '../layouts/layout-content.ts';
import { saveTarget } from './edit-target.ts';
import { testDocument } from './test-session.tsx';

const layout = {
  id: 7,
  name: 'Newsletter',
  email_design_system_id: 3,
  brand_profile_id: null,
  locales: ['en-US'],
  lock_version: 4,
  content: {
    container_component_instance: testDocument().content.container_component_instance,
    component_instances: [],
  },
  created_at: '2026-11-25T10:00:00.000Z',
  updated_at: '2026-11-25T10:00:00.000Z',
} as unknown as Layout;

// The API client keeps the fetch it was made with, so the stand-in is in place before it is imported.
const network = vi.hoisted(() => {
  const state: { handle: (request: Request) => Promise<Response> } = {
    handle: async () => {
      throw new TypeError('Failed to fetch');
    },
  };
  globalThis.fetch = (input: RequestInfo | URL, init?: RequestInit) =>
    state.handle(input instanceof Request ? input : new Request(input, init));
  return state;
});

/** The requests the save sent, answered by `answer`. */
function serverAnswering(answer: (body: Record<string, unknown>) => Response) {
  const sent: { method: string; url: string; body: Record<string, unknown> }[] = [];
  network.handle = async (request) => {
    const body = (await request.json()) as Record<string, unknown>;
    sent.push({ method: request.method, url: request.url, body });
    return answer(body);
  };
  return sent;
}

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

describe('saveTarget for a layout', () => {
  it('sends the layout’s content with the subject and preheader emails start from, locales and lock_version, never link tracking', async () => {
    const sent = serverAnswering((body) => json(200, { ...layout, ...body, lock_version: 5 }));
    const answer = await saveTarget(
      1,
      { kind: 'layout', layout },
      {
        lockVersion: 4,
        settings: { brand_profile_id: 2, link_tracking_profile_id: 9 },
        document: testDocument(),
      },
    );
    expect(sent).toHaveLength(1);
    expect(sent[0]?.method).toBe('PATCH');
    expect(sent[0]?.url).toMatch(/\/api\/v1\/workspaces\/1\/layouts\/7$/);
    expect(Object.keys(sent[0]?.body ?? {}).sort()).toEqual([
      'brand_profile_id',
      'content',
      'locales',
      'lock_version',
    ]);
    expect(Object.keys(sent[0]?.body.content as object).sort()).toEqual([
      'component_instances',
      'container_component_instance',
      'preheader',
      'subject',
    ]);
    expect(answer.kind).toBe('saved');
    if (answer.kind === 'saved') {
      expect(answer.copy.lockVersion).toBe(5);
      expect(answer.copy.saved.kind).toBe('layout');
    }
  });

  it('tells a 409 as a conflict carrying the current layout', async () => {
    serverAnswering(() =>
      json(409, {
        message: 'changed',
        lock_version: 6,
        layout: { ...layout, lock_version: 6, name: 'Theirs' },
      }),
    );
    const answer = await saveTarget(
      1,
      { kind: 'layout', layout },
      { lockVersion: 4, settings: {}, document: testDocument() },
    );
    expect(answer.kind).toBe('conflict');
    if (answer.kind === 'conflict') {
      expect(answer.theirs.lockVersion).toBe(6);
      expect(answer.theirs.saved).toMatchObject({ kind: 'layout', layout: { name: 'Theirs' } });
    }
  });

  it('tells a failed connection as offline', async () => {
    network.handle = async () => {
      throw new TypeError('Failed to fetch');
    };
    const answer = await saveTarget(
      1,
      { kind: 'layout', layout },
      { lockVersion: 4, settings: {}, document: testDocument() },
    );
    expect(answer).toEqual({ kind: 'offline' });
  });
});
