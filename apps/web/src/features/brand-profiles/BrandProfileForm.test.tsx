import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { DesignSystem } from '../design-systems/design-systems-api.ts';
import { BrandProfileForm } from './BrandProfileForm.tsx';

const apiCalls = vi.hoisted(() => ({ GET: vi.fn(), POST: vi.fn(), PATCH: vi.fn(), DELETE: vi.fn() }));
vi.mock('../../app/api.ts', () => ({ api: apiCalls }));
vi.mock('@mantine/notifications', () => ({ notifications: { show: vi.fn() } }));

// The JSON box grows with its text, listening for web fonts loading, which jsdom lacks.
if (!('fonts' in document)) {
  Object.defineProperty(document, 'fonts', {
    value: { addEventListener: () => {}, removeEventListener: () => {} },
  });
}

const listPath =
  '/api/v1/workspaces/{workspace_id}/email_design_systems/{email_design_system_id}/brand_profiles';
const system = {
  id: 5,
  name: 'Starter',
  design_tokens: {
    colors: { background: '#ffffff', primary: '#2f5bea', on_primary: '#ffffff' },
    fonts: { body: 'Helvetica, Arial, sans-serif' },
    sizes: { radius: 6 },
  },
  custom_styles: [],
} as unknown as DesignSystem;
const ok = (data: unknown) => Promise.resolve({ data, response: { ok: true, status: 200 } });

function renderForm() {
  render(
    <MantineProvider env="test">
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <BrandProfileForm
          workspaceId={3}
          system={system}
          profile={null}
          readOnly={false}
          onClose={() => {}}
        />
      </QueryClientProvider>
    </MantineProvider>,
  );
  return screen.getByRole('dialog', { name: 'New brand profile' });
}

describe('BrandProfileForm', { timeout: 20_000 }, () => {
  beforeEach(() => {
    vi.clearAllMocks();
    apiCalls.GET.mockImplementation(() => ok({ results: [], pagination: { page: 1, per: 100, total: 0 } }));
    apiCalls.POST.mockImplementation((_path: string, { body }: { body: object }) => ok({ id: 9, ...body }));
  });

  it('edits token overrides in fields typed by the tokens, in sync with the JSON tab', async () => {
    const dialog = renderForm();
    const primary = within(dialog).getByRole('textbox', { name: 'Primary' });
    expect(primary).toHaveAttribute('placeholder', '#2f5bea');
    expect(within(dialog).getByRole('textbox', { name: 'Body' })).toHaveAttribute(
      'placeholder',
      'Helvetica, Arial, sans-serif',
    );
    expect(within(dialog).getByRole('textbox', { name: 'Radius' })).toHaveAttribute('placeholder', '6');
    // White on the starter’s blue reads well; on a pale yellow it does not, and the field says so.
    expect(within(dialog).getByText(/Contrast 5\.52:1 against Primary$/)).toBeInTheDocument();
    await userEvent.type(primary, '#ffe066');
    expect(within(dialog).getByText(/Contrast 1\.\d\d:1 against Primary \(below 4\.5:1/)).toBeInTheDocument();
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Radius' }), '12');

    await userEvent.click(within(dialog).getByRole('tab', { name: 'Advanced (JSON)' }));
    const json = within(dialog).getByRole('textbox', { name: 'Design token overrides (JSON)' });
    expect(JSON.parse((json as HTMLTextAreaElement).value)).toEqual({
      colors: { primary: '#ffe066' },
      sizes: { radius: 12 },
    });
    await userEvent.clear(json);
    await userEvent.click(json);
    await userEvent.paste('{ "colors": { "primary": "#d6336c" } }');
    await userEvent.click(within(dialog).getByRole('tab', { name: 'Tokens' }));
    expect(within(dialog).getByRole('textbox', { name: 'Primary' })).toHaveValue('#d6336c');
    expect(within(dialog).getByRole('textbox', { name: 'Radius' })).toHaveValue('');

    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Name' }), 'Berry');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(apiCalls.POST).toHaveBeenCalledWith(listPath, {
        params: { path: { workspace_id: 3, email_design_system_id: 5 } },
        body: {
          name: 'Berry',
          design_tokens: { colors: { primary: '#d6336c' } },
          custom_styles: [],
          component_overrides: [],
        },
      }),
    );
  });

  it('sends the fields’ editing to the JSON tab when the JSON does not parse', async () => {
    const dialog = renderForm();
    await userEvent.click(within(dialog).getByRole('tab', { name: 'Advanced (JSON)' }));
    const json = within(dialog).getByRole('textbox', { name: 'Design token overrides (JSON)' });
    await userEvent.clear(json);
    await userEvent.click(json);
    await userEvent.paste('{ "colors": ');
    await userEvent.click(within(dialog).getByRole('tab', { name: 'Tokens' }));
    expect(within(dialog).getByText(/Design tokens is not valid JSON/)).toHaveAttribute('role', 'alert');
    expect(within(dialog).queryByRole('textbox', { name: 'Primary' })).toBeNull();
    expect(within(dialog).getByRole('button', { name: 'Save' })).toBeDisabled();
  });

  it('previews the brand beside the form, following unsaved token changes', async () => {
    const container = {
      id: 1,
      name: 'wrapper',
      label: 'Wrapper',
      container: true,
      template: '<div>{{children}}</div>',
      field_definitions: [],
    };
    const button = {
      id: 2,
      name: 'button',
      label: 'Button',
      container: false,
      template: '<a style="background-color: {{ render_context.design_tokens.colors.primary }}">Go</a>',
      field_definitions: [],
    };
    apiCalls.GET.mockImplementation((path: string) =>
      path.endsWith('/email_design_systems/{id}')
        ? ok(system)
        : ok({ results: [container, button], pagination: { page: 1, per: 100, total: 2 } }),
    );
    const dialog = renderForm();
    const frame = await within(dialog).findByTitle('Brand preview');
    expect(frame.getAttribute('srcdoc')).toContain('background-color: #2f5bea');
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Primary' }), '#d6336c');
    await waitFor(() => expect(frame.getAttribute('srcdoc')).toContain('background-color: #d6336c'));
  });

  it('gives the brand its own custom styles, with the API’s refusals on their inputs', async () => {
    apiCalls.POST.mockImplementationOnce(() =>
      Promise.resolve({
        error: {
          message: 'Validation failed',
          errors: { 'custom_styles.0.name': ['must be lowercase letters, digits and underscores'] },
        },
        response: { ok: false, status: 422 },
      }),
    );
    const dialog = renderForm();
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Name' }), 'Berry');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add custom style' }));
    await userEvent.type(
      within(dialog).getByRole('textbox', { name: 'Label (in the toolbar)' }),
      'Highlight',
    );
    const styleName = within(dialog).getAllByRole('textbox', { name: 'Name' })[1] as HTMLElement;
    await userEvent.type(styleName, 'High Light');
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'CSS' }), 'color: #d6336c;');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(styleName).toHaveAttribute('aria-invalid', 'true'));
    expect(within(dialog).getByText('must be lowercase letters, digits and underscores')).toBeInTheDocument();

    await userEvent.clear(styleName);
    await userEvent.type(styleName, 'highlight');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(apiCalls.POST).toHaveBeenLastCalledWith(listPath, {
        params: { path: { workspace_id: 3, email_design_system_id: 5 } },
        body: {
          name: 'Berry',
          design_tokens: {},
          custom_styles: [{ label: 'Highlight', name: 'highlight', style: 'color: #d6336c;' }],
          component_overrides: [],
        },
      }),
    );
  });
});
