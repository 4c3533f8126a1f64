import { setFieldValue } from '@letterset/core';
import { permissionKeys } from '@letterset/core/permissions';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { type Me, meQuery } from '../../app/session.ts';
import { saveDelayMs } from './autosave.ts';
import type { EditTarget } from './edit-target.ts';
import type { Email } from './editor-api.ts';
import { instanceId, testDocument } from './test-session.tsx';
import { type EditorResources, useDocumentEditorSession } from './use-editor-session.ts';

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

const document = testDocument();
const email = {
  id: 5,
  name: 'Welcome',
  status: 'draft',
  lock_version: 3,
  email_design_system_id: 1,
  brand_profile_id: null,
  link_tracking_profile_id: null,
  email_content: document.content,
  locales: document.locales,
  default_locale: document.defaultLocale,
} as unknown as Email;

const resources = {
  designSystem: { id: 1, name: 'System', custom_styles: [] },
  components: [],
  brandProfiles: [],
  conditionals: [],
  personalizationTags: [],
  linkTrackingProfiles: [],
} as unknown as EditorResources;

const headline = { instanceId, branch: 'null_branch', locale: 'en-US', variable: 'headline' };
const headlineOf = (content: unknown) =>
  (
    (
      content as {
        component_instances: { field_values: Record<string, Record<string, Record<string, unknown>>> }[];
      }
    ).component_instances[0]?.field_values.null_branch?.['en-US']?.headline as { value?: unknown } | undefined
  )?.value;

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/** The PATCHes the session sent; the server answers each with `answer`. */
function serverAnswering(answer: (body: Record<string, unknown>, index: number) => Response) {
  const sent: { method: string; url: string; body: Record<string, unknown> }[] = [];
  network.handle = async (request) => {
    // Presence (who else has the email open) is not what these tests are about.
    if (new URL(request.url).pathname.includes('/presence')) {
      return request.method === 'PUT' ? json(200, { present: [] }) : new Response(null, { status: 204 });
    }
    const body = (await request.json()) as Record<string, unknown>;
    sent.push({ method: request.method, url: request.url, body });
    return answer(body, sent.length - 1);
  };
  return sent;
}

/** The server's rule: a write at the current lock_version is saved and moves it on by one. */
const acceptingServer = () => {
  let current: Email = email;
  return serverAnswering((body) => {
    current = { ...current, ...body, lock_version: (body.lock_version as number) + 1 } as Email;
    return json(200, current);
  });
};

function openSession(
  target: EditTarget = { kind: 'email', email },
  permissions: readonly string[] = permissionKeys,
) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  queryClient.setQueryData(meQuery.queryKey, { id: 1, permissions } as unknown as Me);
  const onSaved = vi.fn();
  const onReplace = vi.fn();
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
  );
  const hook = renderHook(
    () => useDocumentEditorSession({ workspaceId: 1, target, resources, onSaved, onReplace }),
    { wrapper },
  );
  return { ...hook, onSaved, onReplace };
}

beforeEach(() => localStorage.clear());
afterEach(() => {
  network.handle = async () => {
    throw new TypeError('Failed to fetch');
  };
});

describe('useDocumentEditorSession', () => {
  it('autosaves an edit with the lock_version the email was opened at, then with the one the server answered', async () => {
    const sent = acceptingServer();
    const { result, onSaved } = openSession();
    expect(result.current.readOnly).toBe(false);
    expect(result.current.saveStatus.kind).toBe('saved');

    act(() => result.current.editor.dispatch(setFieldValue(headline, 'Hello')));
    expect(headlineOf(result.current.editor.getState().document.content)).toBe('Hello');
    expect(result.current.saveStatus.kind).not.toBe('saved');
    await waitFor(() => expect(result.current.saveStatus.kind).toBe('saved'), { timeout: 3000 });
    expect(sent).toHaveLength(1);
    expect(sent[0]?.method).toBe('PATCH');
    expect(sent[0]?.url).toMatch(/\/api\/v1\/workspaces\/1\/emails\/5$/);
    expect(sent[0]?.body.lock_version).toBe(3);
    expect(headlineOf(sent[0]?.body.email_content)).toBe('Hello');
    expect(onSaved).toHaveBeenCalledWith(
      expect.objectContaining({ kind: 'email', email: expect.objectContaining({ lock_version: 4 }) }),
    );

    act(() => result.current.editor.dispatch(setFieldValue(headline, 'Hello again')));
    await waitFor(() => expect(sent).toHaveLength(2), { timeout: 3000 });
    expect(sent[1]?.body.lock_version).toBe(4);
    expect(headlineOf(sent[1]?.body.email_content)).toBe('Hello again');
  });

  it('undoes an edit after it was saved, and saves the undone content', async () => {
    const sent = acceptingServer();
    const { result } = openSession();
    act(() => result.current.editor.dispatch(setFieldValue(headline, 'Hello')));
    await waitFor(() => expect(sent).toHaveLength(1), { timeout: 3000 });
    await waitFor(() => expect(result.current.saveStatus.kind).toBe('saved'));
    expect(result.current.history.canUndo).toBe(true);

    act(() => result.current.editor.undo());
    expect(headlineOf(result.current.editor.getState().document.content)).toBeUndefined();
    await waitFor(() => expect(sent).toHaveLength(2), { timeout: 3000 });
    expect(sent[1]?.body.lock_version).toBe(4);
    expect(headlineOf(sent[1]?.body.email_content)).toBeUndefined();
    await waitFor(() => expect(result.current.saveStatus.kind).toBe('saved'));
    expect(result.current.history.canRedo).toBe(true);
  });

  it('surfaces a stale write as a conflict with the server’s copy, and reloads theirs when asked', async () => {
    const theirs = {
      ...email,
      lock_version: 7,
      email_content: {
        ...document.content,
        component_instances: document.content.component_instances.map((instance) => ({
          ...instance,
          field_values: { null_branch: { 'en-US': { headline: { value: 'Theirs' } } } },
        })),
      },
    } as unknown as Email;
    serverAnswering(() => json(409, { message: 'changed', lock_version: 7, email: theirs }));
    const { result, onSaved, onReplace } = openSession();
    act(() => result.current.editor.dispatch(setFieldValue(headline, 'Mine')));
    await waitFor(() => expect(result.current.saveStatus.kind).toBe('conflict'), { timeout: 3000 });
    const status = result.current.saveStatus;
    if (status.kind !== 'conflict') throw new Error('expected a conflict');
    expect(status.theirs.lockVersion).toBe(7);
    expect(headlineOf(status.theirs.document.content)).toBe('Theirs');
    expect(onSaved).not.toHaveBeenCalled();
    // What the user typed stays on screen until they choose.
    expect(headlineOf(result.current.editor.getState().document.content)).toBe('Mine');

    act(() => result.current.replaceWith(status.theirs.saved));
    expect(onReplace).toHaveBeenCalledWith({ kind: 'email', email: theirs });
  });

  it('saves a brand profile chosen in the settings with the lock_version, outside the undo history', async () => {
    const sent = acceptingServer();
    const { result } = openSession();
    act(() => result.current.changeBrandProfile(2));
    expect(result.current.brandProfileId).toBe(2);
    await waitFor(() => expect(sent).toHaveLength(1), { timeout: 3000 });
    expect(sent[0]?.body).toEqual({ lock_version: 3, brand_profile_id: 2 });
    expect(result.current.history.canUndo).toBe(false);
  });

  it('opens a published email read-only: no autosave, nothing sent', async () => {
    const sent = acceptingServer();
    // Fake clocks let the test wait out several autosave delays at once instead of sleeping.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    onTestFinished(() => {
      vi.useRealTimers();
    });
    const { result } = openSession({ kind: 'email', email: { ...email, status: 'published' } as Email });
    expect(result.current.readOnly).toBe(true);
    expect(result.current.frozen).not.toBeNull();
    expect(result.current.autosave).toBeNull();
    expect(result.current.saveStatus.kind).toBe('saved');
    act(() => result.current.editor.dispatch(setFieldValue(headline, 'Hello')));
    expect(headlineOf(result.current.editor.getState().document.content)).toBeUndefined();
    await act(() => vi.advanceTimersByTimeAsync(saveDelayMs * 3));
    expect(sent).toHaveLength(0);
  });

  it('opens the inspector on a component picked in the preview, and the settings on a subject problem', () => {
    acceptingServer();
    const { result } = openSession();
    expect(result.current.panel).toBe('settings');
    act(() => result.current.pickInPreview(instanceId, null));
    expect(result.current.selectedId).toBe(instanceId);
    expect(result.current.selected?.id).toBe(instanceId);
    expect(result.current.panel).toBe('inspector');
    act(() =>
      result.current.openProblem({ owner: 'subject', locale: 'en-US', branch: 'null_branch' } as never),
    );
    expect(result.current.panel).toBe('settings');
  });
});
