import type { BrandedComponent } from '@letterset/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { Inspector } from './Inspector.tsx';
import { renderableSession } from './test-session.tsx';

const apiCalls = vi.hoisted(() => ({ GET: vi.fn(), POST: vi.fn() }));
vi.mock('../../app/api.ts', () => ({ api: apiCalls }));

const offer = {
  id: 2,
  label: 'Offer',
  container: false,
  feed_id: 8,
  field_definitions: [
    { label: 'Title', liquid_variable: 'title', type: 'text', default_value: '', feed_field_name: 'name' },
    { label: 'Price', liquid_variable: 'price', type: 'text', default_value: '', feed_field_name: 'price' },
    { label: 'Link', liquid_variable: 'link', type: 'url', default_value: 'https://example.com/' },
  ],
} as unknown as BrandedComponent;

function ok(data: unknown) {
  return Promise.resolve({ data, error: undefined, response: { ok: true, status: 200 } });
}

function renderInspector(component: BrandedComponent) {
  const { editor, Live } = renderableSession({ componentsById: new Map([[2, component]]) });
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <Live>
        {(document) => {
          const instance = document.content.component_instances[0];
          return instance ? <Inspector instance={instance} defaultLocale="en-US" /> : null;
        }}
      </Live>
    </QueryClientProvider>,
  );
  return editor;
}

describe('Fill from feed', () => {
  beforeEach(() => {
    apiCalls.GET.mockReset();
    apiCalls.POST.mockReset();
    apiCalls.GET.mockReturnValue(
      ok({ id: 8, name: 'Offers', parameters: [{ label: 'Offer ID', name: 'offer_id' }] }),
    );
  });

  it('runs the feed with the parameters typed and fills the fields naming its fields, as one undo step', async () => {
    apiCalls.POST.mockReturnValue(
      ok({
        url: null,
        body: null,
        status: 200,
        error: null,
        extracted_data: { name: 'Spring sale', price: 19.5 },
      }),
    );
    const editor = renderInspector(offer);
    await userEvent.type(await screen.findByRole('textbox', { name: 'Offer ID' }), '42');
    await userEvent.click(screen.getByRole('button', { name: 'Fill from feed' }));

    expect(await screen.findByText('Filled 2 fields from the feed.')).toBeInTheDocument();
    expect(apiCalls.POST).toHaveBeenCalledWith('/api/v1/workspaces/{workspace_id}/feeds/{id}/run', {
      params: { path: { workspace_id: 1, id: 8 } },
      body: { parameters: { offer_id: '42' } },
    });
    const values = () =>
      editor.getState().document.content.component_instances[0]?.field_values.null_branch?.['en-US'];
    expect(values()?.title?.value).toBe('Spring sale');
    expect(values()?.price?.value).toBe(19.5);
    expect(values()?.link?.value).toBe('https://example.com/');
    editor.undo();
    expect(values()?.title).toBeUndefined();
  });

  it('says why nothing was filled when the feed fails', async () => {
    apiCalls.POST.mockReturnValue(
      ok({ url: null, body: null, status: 404, error: 'The feed answered 404', extracted_data: {} }),
    );
    const editor = renderInspector(offer);
    await userEvent.click(await screen.findByRole('button', { name: 'Fill from feed' }));
    expect(await screen.findByText('The feed could not be used: The feed answered 404')).toBeInTheDocument();
    expect(editor.getState().canUndo).toBe(false);
  });

  it('is not offered for a component without a feed', () => {
    renderInspector({ ...offer, feed_id: null } as BrandedComponent);
    expect(screen.queryByRole('button', { name: 'Fill from feed' })).toBeNull();
    expect(apiCalls.GET).not.toHaveBeenCalled();
  });
});
