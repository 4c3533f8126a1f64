import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { AiProviderForm } from './AiProviderForm.tsx';
import type { AiSettings } from './ai-settings-api.ts';

const apiCalls = vi.hoisted(() => ({ GET: vi.fn(), PATCH: vi.fn(), POST: vi.fn() }));
vi.mock('../../app/api.ts', () => ({ api: apiCalls }));

function answer(status: number, body: unknown) {
  const ok = status < 300;
  return Promise.resolve({
    data: ok ? body : undefined,
    error: ok ? undefined : body,
    response: { ok, status },
  });
}

const noSettings: AiSettings = {
  configured: false,
  source: 'none',
  provider: null,
  base_url: null,
  model: null,
  image_model: null,
  api_key: null,
  environment_default: null,
  updated_at: null,
};

const openAi: AiSettings = {
  ...noSettings,
  configured: true,
  source: 'organization',
  provider: 'openai',
  model: 'gpt-4.1-mini',
  image_model: 'gpt-image-1',
  api_key: '••••abcd',
  updated_at: '2026-11-01T00:00:00.000Z',
};

function renderForm(settings: AiSettings) {
  const queryClient = new QueryClient({
    defaultOptions: { queries: { retry: false }, mutations: { retry: false } },
  });
  render(
    <MantineProvider env="test">
      <QueryClientProvider client={queryClient}>
        <AiProviderForm settings={settings} />
      </QueryClientProvider>
    </MantineProvider>,
  );
  return queryClient;
}

async function chooseProvider(label: string) {
  await userEvent.click(screen.getByRole('combobox', { name: 'Provider' }));
  await userEvent.click(await screen.findByRole('option', { name: label }));
}

const baseUrlField = () => screen.queryByRole('textbox', { name: 'Base URL' });

describe('AiProviderForm', { timeout: 20_000 }, () => {
  beforeEach(() => {
    apiCalls.GET.mockReset();
    apiCalls.PATCH.mockReset();
    apiCalls.POST.mockReset();
  });

  it('asks for a base URL for an OpenAI-compatible server only, and offers a custom endpoint to the others', async () => {
    renderForm(openAi);
    expect(baseUrlField()).toBeNull();
    expect(screen.getByRole('textbox', { name: 'Image model' })).toHaveValue('gpt-image-1');

    await chooseProvider('OpenAI-compatible server (Ollama, vLLM, LM Studio)');
    expect(baseUrlField()).toBeRequired();
    expect(screen.queryByRole('switch', { name: /^Use a custom endpoint/ })).toBeNull();

    await chooseProvider('Anthropic');
    expect(baseUrlField()).toBeNull();
    expect(screen.queryByRole('textbox', { name: 'Image model' })).toBeNull();
    expect(screen.getByText(/Anthropic makes no images/)).toBeInTheDocument();

    await userEvent.click(screen.getByRole('switch', { name: /^Use a custom endpoint/ }));
    expect(baseUrlField()).toBeInTheDocument();
  });

  it('warns before the stored key would go to another address, and says what the save removed', async () => {
    apiCalls.PATCH.mockReturnValue(
      answer(200, {
        ...openAi,
        base_url: 'https://gateway.example/v1',
        api_key: null,
        secrets_cleared: ['api_key'],
      }),
    );
    renderForm(openAi);
    expect(screen.queryByText(/Saving this address removes the stored API key/)).toBeNull();
    await userEvent.click(screen.getByRole('switch', { name: /^Use a custom endpoint/ }));
    await userEvent.type(screen.getByRole('textbox', { name: 'Base URL' }), 'https://gateway.example/v1');
    expect(screen.getByText(/Saving this address removes the stored API key/)).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(
      await screen.findByText(
        'The address moved, so these stored secrets were removed: api key. Enter them again for the new address.',
      ),
    ).toBeInTheDocument();
  });

  it('sends the masked key back unchanged, so the stored key stays', async () => {
    apiCalls.PATCH.mockReturnValue(answer(200, { ...openAi, model: 'gpt-4.1' }));
    renderForm(openAi);
    expect(screen.getByLabelText('API key')).toHaveValue('••••abcd');

    const model = screen.getByRole('textbox', { name: 'Model' });
    await userEvent.clear(model);
    await userEvent.type(model, 'gpt-4.1');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));

    await waitFor(() =>
      expect(apiCalls.PATCH).toHaveBeenCalledWith('/api/v1/ai_settings', {
        body: {
          provider: 'openai',
          base_url: null,
          model: 'gpt-4.1',
          image_model: 'gpt-image-1',
          api_key: '••••abcd',
        },
      }),
    );
  });

  it('sends a newly typed key, and drops the image model for Anthropic', async () => {
    apiCalls.PATCH.mockReturnValue(answer(200, openAi));
    renderForm(openAi);
    await chooseProvider('Anthropic');
    expect(screen.getByText(/The stored key was saved for OpenAI/)).toBeInTheDocument();
    const key = screen.getByLabelText('API key');
    await userEvent.clear(key);
    await userEvent.type(key, 'sk-ant-new');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));

    await waitFor(() =>
      expect(apiCalls.PATCH).toHaveBeenCalledWith('/api/v1/ai_settings', {
        body: {
          provider: 'anthropic',
          base_url: null,
          model: 'gpt-4.1-mini',
          image_model: null,
          api_key: 'sk-ant-new',
        },
      }),
    );
  });

  it("shows the API's 422 on the field it names", async () => {
    apiCalls.PATCH.mockReturnValue(
      answer(422, {
        message: 'Failed to save',
        errors: { base_url: ['is a private or loopback address'] },
      }),
    );
    renderForm(noSettings);
    await chooseProvider('OpenAI-compatible server (Ollama, vLLM, LM Studio)');
    await userEvent.type(baseUrlField() as HTMLElement, 'http://10.0.0.5:11434/v1');
    await userEvent.type(screen.getByRole('textbox', { name: 'Model' }), 'llama3.1');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));

    expect(await screen.findByText('is a private or loopback address')).toBeInTheDocument();
    expect(baseUrlField()).toHaveAttribute('aria-invalid', 'true');
    expect(apiCalls.PATCH).toHaveBeenCalledWith('/api/v1/ai_settings', {
      body: {
        provider: 'openai_compatible',
        base_url: 'http://10.0.0.5:11434/v1',
        model: 'llama3.1',
        image_model: null,
        api_key: null,
      },
    });
  });

  it('checks the provider, model and base URL before asking the API', async () => {
    renderForm(noSettings);
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Choose a provider')).toBeInTheDocument();

    await chooseProvider('OpenAI-compatible server (Ollama, vLLM, LM Studio)');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(/An OpenAI-compatible server needs its address/)).toBeInTheDocument();
    expect(screen.getByText(/Name the model to ask/)).toBeInTheDocument();
    expect(apiCalls.PATCH).not.toHaveBeenCalled();
  });

  it("goes back to the server's default with provider null", async () => {
    const environment_default = {
      provider: 'openai_compatible' as const,
      base_url: 'http://127.0.0.1:11434/v1',
      model: 'llama3.1',
      image_model: null,
    };
    apiCalls.PATCH.mockReturnValue(
      answer(200, { ...openAi, source: 'environment', provider: null, environment_default }),
    );
    renderForm({ ...openAi, environment_default });
    await userEvent.click(screen.getByRole('button', { name: 'Use the server’s default' }));
    await waitFor(() =>
      expect(apiCalls.PATCH).toHaveBeenCalledWith('/api/v1/ai_settings', { body: { provider: null } }),
    );
  });

  it('tests the connection and shows the answer with its duration', async () => {
    let finish: (value: unknown) => void = () => {};
    apiCalls.POST.mockReturnValue(new Promise((resolve) => (finish = resolve)));
    renderForm(openAi);
    const button = screen.getByRole('button', { name: 'Test connection' });
    await userEvent.click(button);
    await waitFor(() => expect(button).toHaveAttribute('data-loading', 'true'));
    expect(apiCalls.POST).toHaveBeenCalledWith('/api/v1/ai_settings/test');

    finish({
      data: {
        ok: false,
        message: 'The AI provider refused the API key (HTTP 401).',
        model: 'gpt-4.1-mini',
        duration_ms: 412,
      },
      response: { ok: true, status: 200 },
    });
    const result = await screen.findByTestId('ai-connection-test-result');
    expect(result).toHaveTextContent('The test failed');
    expect(result).toHaveTextContent('The AI provider refused the API key (HTTP 401).');
    expect(result).toHaveTextContent('gpt-4.1-mini · 412 ms');
  });
});
