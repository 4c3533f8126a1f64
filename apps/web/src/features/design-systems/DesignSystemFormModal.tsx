import { Alert, Button, Group, Modal, Select, Switch, Textarea, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../../app/api.ts';
import { unwrap } from '../../shared/api-error.ts';
import { showApiErrors } from '../../shared/form-errors.ts';
import { type DesignSystem, designSystemKeys, updateDesignSystem } from './api.ts';

const formFields = ['name', 'description', 'access_scope', 'require_brand_profile_for_use'] as const;

const accessScopes = [
  { value: 'this_workspace_only', label: 'This workspace only' },
  { value: 'all_workspaces', label: 'All workspaces (shared, editable only here)' },
];

/** Creates a design system, or edits one's name, description and sharing when `system` is given. */
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
  const queryClient = useQueryClient();
  const [problems, setProblems] = useState<string[]>([]);
  const form = useForm({
    initialValues: {
      name: system?.name ?? '',
      description: system?.description ?? '',
      access_scope: system?.access_scope ?? 'this_workspace_only',
      require_brand_profile_for_use: system?.require_brand_profile_for_use ?? false,
    },
  });

  const save = form.onSubmit(async (values) => {
    setProblems([]);
    const body = {
      name: values.name.trim(),
      description: values.description.trim() || null,
      access_scope: values.access_scope as DesignSystem['access_scope'],
      require_brand_profile_for_use: values.require_brand_profile_for_use,
    };
    try {
      const saved = system
        ? await updateDesignSystem(workspaceId, system.id, body)
        : await unwrap(
            api.POST('/api/v1/workspaces/{workspace_id}/email_design_systems', {
              params: { path: { workspace_id: workspaceId } },
              body,
            }),
          );
      await queryClient.invalidateQueries({ queryKey: designSystemKeys.all(workspaceId) });
      notifications.show({ message: system ? 'Design system saved' : `${saved.name} created` });
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
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" loading={form.submitting}>
            {system ? 'Save' : 'Create'}
          </Button>
        </Group>
      </form>
    </Modal>
  );
}
