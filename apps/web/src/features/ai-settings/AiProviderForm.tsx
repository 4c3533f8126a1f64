import { Alert, Button, Group, PasswordInput, Select, Stack, Switch, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { errorMessage } from '../../shared/api-error.ts';
import { confirmDestructive } from '../../shared/confirm.tsx';
import { FormActions, FormProblems } from '../../shared/FormParts.tsx';
import { showApiErrors } from '../../shared/form-errors.ts';
import { clearedMessage, movesOrigin, moveWarning } from '../../shared/secret-destination.ts';
import {
  type AiProviderFormValues,
  type AiProviderName,
  type AiSettings,
  aiSettingsKeys,
  formValuesOf,
  makesImages,
  needsBaseUrl,
  providerLabels,
  providerShortLabels,
  settingsToSend,
  testAiSettings,
  updateAiSettings,
} from './ai-settings-api.ts';

const formFields = ['provider', 'base_url', 'model', 'image_model', 'api_key'] as const;

const providerOptions = (Object.keys(providerLabels) as AiProviderName[]).map((value) => ({
  value,
  label: providerLabels[value],
}));

const modelExamples: Record<AiProviderName, string> = {
  openai: 'gpt-4.1-mini',
  anthropic: 'claude-sonnet-4-5',
  openai_compatible: 'llama3.1',
};

/**
 * The organization's own AI provider: which service, where, which models, and its API key. The
 * key is never sent to the browser; the field shows the stored key's mask, and saving the mask
 * back keeps the stored key.
 */
export function AiProviderForm({ settings }: { settings: AiSettings }) {
  const queryClient = useQueryClient();
  const [problems, setProblems] = useState<string[]>([]);
  const [cleared, setCleared] = useState<string | null>(null);
  const form = useForm<AiProviderFormValues>({
    initialValues: formValuesOf(settings),
    validate: {
      provider: (value) => (value ? null : 'Choose a provider'),
      model: (value) => (value.trim() ? null : 'Name the model to ask, e.g. gpt-4.1-mini'),
      base_url: (value, values) => {
        if (value.trim()) return null;
        if (needsBaseUrl(values.provider))
          return 'An OpenAI-compatible server needs its address, e.g. http://ollama.internal:11434/v1';
        if (values.custom_endpoint) return 'Type the endpoint, or turn the custom endpoint off';
        return null;
      },
    },
  });
  const provider = form.values.provider;

  /** The server's answer becomes the cache and what the form compares its changes with. */
  const showSaved = (saved: AiSettings, values: AiProviderFormValues = formValuesOf(saved)) => {
    queryClient.setQueryData(aiSettingsKeys.settings, saved);
    form.setValues(values);
    form.resetDirty(formValuesOf(saved));
  };

  const save = form.onSubmit(async (values) => {
    setProblems([]);
    setCleared(null);
    try {
      const saved = await updateAiSettings(settingsToSend(values));
      showSaved(saved);
      setCleared(clearedMessage(saved.secrets_cleared));
      notifications.show({ color: 'teal', message: 'AI settings saved' });
    } catch (error) {
      setProblems(showApiErrors(form, error, formFields));
    }
  });

  const useServerDefault = async () => {
    setProblems([]);
    try {
      showSaved(await updateAiSettings({ provider: null }));
      notifications.show({ color: 'teal', message: 'AI now uses the server’s default provider' });
    } catch (error) {
      setProblems([errorMessage(error)]);
    }
  };

  const removeKey = async () => {
    const confirmed = await confirmDestructive({
      title: 'Remove the API key',
      message:
        'Letterset forgets the stored key at once. A provider that needs a key refuses AI requests until a new one is saved.',
      confirmLabel: 'Remove key',
    });
    if (!confirmed) return;
    setProblems([]);
    try {
      const saved = await updateAiSettings({ api_key: null });
      // Unsaved changes to the other fields stay in the form.
      showSaved(saved, { ...form.getValues(), api_key: '' });
      notifications.show({ color: 'teal', message: 'The API key was removed' });
    } catch (error) {
      setProblems([errorMessage(error)]);
    }
  };

  const keyFromAnotherProvider =
    settings.api_key !== null &&
    settings.provider !== null &&
    provider !== settings.provider &&
    form.values.api_key === settings.api_key;
  // The stored key goes nowhere else: a base URL on another scheme, host or port drops it too.
  const keyToAnotherAddress =
    settings.api_key !== null &&
    provider !== null &&
    form.values.api_key === settings.api_key &&
    movesOrigin(settings.base_url, settingsToSend(form.values).base_url);

  return (
    <Stack>
      <form onSubmit={save} noValidate aria-label="AI provider">
        <Stack>
          <FormProblems problems={problems} />
          <Select
            label="Provider"
            placeholder="Choose a provider"
            data={providerOptions}
            allowDeselect={false}
            required
            {...form.getInputProps('provider')}
            onChange={(value) => form.setFieldValue('provider', value as AiProviderName | null)}
          />
          {provider !== null && (
            <>
              {needsBaseUrl(provider) ? (
                <TextInput
                  label="Base URL"
                  description="Where the server’s OpenAI-compatible API answers, e.g. http://ollama.internal:11434/v1 (Ollama), or your vLLM or LM Studio server’s /v1 address"
                  placeholder="http://ollama.internal:11434/v1"
                  required
                  {...form.getInputProps('base_url')}
                />
              ) : (
                <>
                  <Switch
                    label="Use a custom endpoint"
                    description={`Send requests to a proxy or gateway instead of ${providerShortLabels[provider]}’s public API`}
                    {...form.getInputProps('custom_endpoint', { type: 'checkbox' })}
                  />
                  {form.values.custom_endpoint && (
                    <TextInput
                      label="Base URL"
                      description={`An address that speaks ${providerShortLabels[provider]}’s API`}
                      placeholder="https://ai-gateway.example.com/v1"
                      required
                      {...form.getInputProps('base_url')}
                    />
                  )}
                </>
              )}
              <TextInput
                label="Model"
                description="The model that writes emails, reviews and translations"
                placeholder={modelExamples[provider]}
                required
                {...form.getInputProps('model')}
              />
              {makesImages(provider) ? (
                <TextInput
                  label="Image model"
                  description="For image generation, e.g. gpt-image-1. Leave empty to turn image generation off."
                  placeholder={provider === 'openai' ? 'gpt-image-1' : undefined}
                  {...form.getInputProps('image_model')}
                />
              ) : (
                <Text size="sm" c="dimmed">
                  Anthropic makes no images: image generation needs OpenAI or an OpenAI-compatible server with
                  an image model.
                </Text>
              )}
              <Group align="flex-end" gap="sm" wrap="nowrap">
                <PasswordInput
                  label="API key"
                  description={
                    keyFromAnotherProvider
                      ? `The stored key was saved for ${providerShortLabels[settings.provider as AiProviderName]}; type the ${providerShortLabels[provider]} key to replace it.`
                      : needsBaseUrl(provider)
                        ? 'Only if your server asks for one. Stored encrypted; only its last characters are shown.'
                        : 'Stored encrypted; only its last characters are shown. Type a new key to replace it.'
                  }
                  autoComplete="off"
                  style={{ flex: 1 }}
                  {...form.getInputProps('api_key')}
                />
                {settings.api_key !== null && (
                  <Button variant="subtle" color="red" onClick={removeKey}>
                    Remove key
                  </Button>
                )}
              </Group>
            </>
          )}
          {(keyFromAnotherProvider || keyToAnotherAddress) && (
            <Alert color="yellow" title="Another address">
              {moveWarning('API key')}
            </Alert>
          )}
          {cleared && (
            <Alert color="yellow" role="status">
              {cleared}
            </Alert>
          )}
          <FormActions
            readOnly={false}
            onCancel={() => {
              const stored = formValuesOf(settings);
              form.setValues(stored);
              form.resetDirty(stored);
              form.clearErrors();
              setProblems([]);
            }}
            cancelLabel="Discard changes"
            submitLabel="Save"
            submitting={form.submitting}
          />
        </Stack>
      </form>
      {settings.environment_default && settings.source === 'organization' && (
        <Alert color="gray" title="The server’s default">
          <Stack gap="xs" align="flex-start">
            <Text size="sm">
              This server offers {providerShortLabels[settings.environment_default.provider]} ·{' '}
              {settings.environment_default.model}
              {settings.environment_default.base_url ? ` at ${settings.environment_default.base_url}` : ''}.
              Using it removes your organization’s provider; the stored settings stay for later.
            </Text>
            <Button size="xs" variant="default" onClick={useServerDefault}>
              Use the server’s default
            </Button>
          </Stack>
        </Alert>
      )}
      <ConnectionTest configured={settings.configured} unsaved={form.isDirty()} />
    </Stack>
  );
}

/** Asks the saved provider for a one-word answer: proves the address, the key and the model. */
function ConnectionTest({ configured, unsaved }: { configured: boolean; unsaved: boolean }) {
  const queryClient = useQueryClient();
  const test = useMutation({
    mutationFn: testAiSettings,
    // The test is a model call too: it shows in the usage table.
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['ai-usage'] }),
  });
  const result = test.data;
  return (
    <Stack gap="sm">
      {unsaved && configured && (
        <Text size="sm" c="orange">
          The test uses the saved settings; save your changes first to try them.
        </Text>
      )}
      <Group gap="sm">
        <Button variant="light" onClick={() => test.mutate()} loading={test.isPending} disabled={!configured}>
          Test connection
        </Button>
        {!configured && (
          <Text size="sm" c="dimmed">
            Save a provider to test it.
          </Text>
        )}
      </Group>
      {result && !test.isPending && (
        <Alert
          color={result.ok ? 'green' : 'red'}
          title={result.ok ? 'The provider answered' : 'The test failed'}
          role="status"
          data-testid="ai-connection-test-result"
        >
          <Text size="sm">{result.message}</Text>
          <Text size="xs" c="dimmed" mt={4}>
            {[result.model, `${result.duration_ms.toLocaleString()} ms`].filter(Boolean).join(' · ')}
          </Text>
        </Alert>
      )}
      {test.isError && !test.isPending && (
        <Alert color="red" title="The test failed" role="status" data-testid="ai-connection-test-result">
          {errorMessage(test.error)}
        </Alert>
      )}
    </Stack>
  );
}
