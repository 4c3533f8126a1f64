import { Alert, Box, Button, Group, Modal, Select, Stack, Switch, Textarea, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { showApiErrors } from '../../shared/form-errors.ts';
import { AiBriefFields } from '../ai-generation/AiBriefFields.tsx';
import { AiNotConfiguredNotice } from '../ai-settings/AiNotConfiguredNotice.tsx';
import { aiSettingsQuery } from '../ai-settings/ai-settings-api.ts';
import {
  createDesignSystem,
  type DesignSystem,
  updateDesignSystem,
  useRefreshDesignSystems,
} from './design-systems-api.ts';

const formFields = [
  'name',
  'description',
  'access_scope',
  'require_brand_profile_for_use',
  'create_with_ai',
  'prompt',
  'ai_agent_id',
] as const;

const accessScopes = [
  { value: 'this_workspace_only', label: 'This workspace only' },
  { value: 'all_workspaces', label: 'All workspaces (shared, editable only here)' },
];

/**
 * Creates a design system (empty, or designed with AI from a brief), or edits one's name,
 * description and sharing when `system` is given.
 */
export function DesignSystemFormModal({
  workspaceId,
  system,
  opened,
  onClose,
  onSaved,
}: {
  workspaceId: number;
  system?: DesignSystem;
  opened: boolean;
  onClose: () => void;
  onSaved?: (system: DesignSystem) => void;
}) {
  const refreshDesignSystems = useRefreshDesignSystems(workspaceId);
  const [problems, setProblems] = useState<string[]>([]);
  const form = useForm({
    initialValues: {
      name: system?.name ?? '',
      description: system?.description ?? '',
      access_scope: system?.access_scope ?? 'this_workspace_only',
      require_brand_profile_for_use: system?.require_brand_profile_for_use ?? false,
      create_with_ai: false,
      prompt: '',
      ai_agent_id: '',
    },
    validate: {
      prompt: (value, values) =>
        !values.create_with_ai || value.trim() ? null : 'Describe the design system to generate',
    },
  });
  // Only a new system can be designed with AI.
  const aiSettings = useQuery({ ...aiSettingsQuery, enabled: !system });

  const save = form.onSubmit(async (values) => {
    setProblems([]);
    const body = {
      name: values.name.trim(),
      description: values.description.trim() || null,
      access_scope: values.access_scope as DesignSystem['access_scope'],
      require_brand_profile_for_use: values.require_brand_profile_for_use,
    };
    const withAi = !system && values.create_with_ai;
    try {
      const saved = system
        ? await updateDesignSystem(workspaceId, system.id, body)
        : await createDesignSystem(
            workspaceId,
            withAi
              ? {
                  ...body,
                  create_with_ai: true,
                  prompt: values.prompt.trim(),
                  ai_agent_id: values.ai_agent_id ? Number(values.ai_agent_id) : null,
                }
              : body,
          );
      await refreshDesignSystems();
      notifications.show({
        message: system
          ? 'Design system saved'
          : withAi
            ? `${saved.name} created: Letterset is designing its components`
            : `${saved.name} created`,
      });
      form.resetDirty();
      onSaved?.(saved);
      onClose();
    } catch (error) {
      setProblems(showApiErrors(form, error, formFields));
    }
  });

  return (
    <Modal opened={opened} onClose={onClose} title={system ? 'Edit design system' : 'New design system'}>
      <form onSubmit={save} noValidate>
        {problems.length > 0 && (
          <Alert color="red" mb="md" role="alert">
            {problems.join(' ')}
          </Alert>
        )}
        <TextInput label="Name" required mb="sm" data-autofocus {...form.getInputProps('name')} />
        <Textarea label="Description" autosize minRows={2} mb="sm" {...form.getInputProps('description')} />
        <Select
          label="Available to"
          data={accessScopes}
          allowDeselect={false}
          mb="sm"
          {...form.getInputProps('access_scope')}
        />
        <Switch
          label="Emails must pick a brand profile"
          mb="md"
          {...form.getInputProps('require_brand_profile_for_use', { type: 'checkbox' })}
        />
        {!system && aiSettings.data?.configured === false && (
          <Box mb="md">
            <AiNotConfiguredNotice />
          </Box>
        )}
        {!system && aiSettings.data?.configured === true && (
          <Stack gap="sm" mb="md">
            <Switch
              label="Generate with AI"
              description="AI designs a container and 6 to 12 components, with their fields, from your brief"
              {...form.getInputProps('create_with_ai', { type: 'checkbox' })}
            />
            {form.values.create_with_ai && (
              <AiBriefFields
                workspaceId={workspaceId}
                briefLabel="Brief"
                briefPlaceholder="A design system for a garden centre’s monthly newsletter: a header with our logo, a hero, product cards, tips and a footer. Earthy greens, friendly and simple."
                prompt={form.getInputProps('prompt')}
                agent={{
                  ...form.getInputProps('ai_agent_id'),
                  onChange: (value: string | null) => form.setFieldValue('ai_agent_id', value ?? ''),
                }}
              />
            )}
          </Stack>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" loading={form.submitting}>
            {system ? 'Save' : form.values.create_with_ai ? 'Create with AI' : 'Create'}
          </Button>
        </Group>
      </form>
    </Modal>
  );
}
