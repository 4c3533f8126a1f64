import { Alert, Button, Group, Modal, Select, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useCan } from '../../app/session.ts';
import { CollectionPanel } from '../../shared/CollectionPanel.tsx';
import { showApiErrors } from '../../shared/form-errors.ts';
import {
  type DynamicContentProfile,
  deleteProfile,
  dynamicContentKeys,
  presetLabels,
  profileListQuery,
  saveProfile,
} from './dynamic-content-api.ts';

const presetOptions = [
  { value: 'none', label: 'None: syntax written by hand' },
  ...Object.entries(presetLabels).map(([value, label]) => ({ value, label })),
];

/** Dynamic content profiles: one per sending platform syntax. */
export function ProfilesPanel({ workspaceId }: { workspaceId: number }) {
  const can = useCan();
  const [page, setPage] = useState(1);
  const query = useQuery(profileListQuery(workspaceId, page));
  return (
    <CollectionPanel
      noun="profile"
      description="A dynamic content profile stands for one sending platform's syntax. Conditionals and personalization tags hold one value per profile, and an export with a profile emits that profile's syntax. With a template engine preset, conditionals can be built with the preset picker instead of written by hand."
      query={query}
      onPage={setPage}
      queryKey={dynamicContentKeys.kind(workspaceId, 'profiles')}
      headers={['Name', 'Template engine preset', 'Updated']}
      cells={(profile) => [
        <Text key="name" fw={500}>
          {profile.name}
        </Text>,
        profile.template_engine_preset
          ? presetLabels[profile.template_engine_preset]
          : 'None (written by hand)',
        new Date(profile.updated_at).toLocaleDateString(),
      ]}
      nameOf={(profile) => profile.name}
      permissions={{
        create: can('create_dynamic_content_profiles'),
        update: can('update_dynamic_content_profiles'),
        delete: can('delete_dynamic_content_profiles'),
      }}
      renderForm={(profile, close) => (
        <ProfileForm
          workspaceId={workspaceId}
          profile={profile}
          onClose={close}
          readOnly={profile !== null && !can('update_dynamic_content_profiles')}
        />
      )}
      deleteItem={(profile) => deleteProfile(workspaceId, profile.id)}
      emptyHint="Add one per sending platform you export to, e.g. Braze (Liquid) or Salesforce Marketing Cloud (AMPscript)."
    />
  );
}

function ProfileForm({
  workspaceId,
  profile,
  onClose,
  readOnly,
}: {
  workspaceId: number;
  profile: DynamicContentProfile | null;
  onClose: () => void;
  readOnly: boolean;
}) {
  const queryClient = useQueryClient();
  const [problems, setProblems] = useState<string[]>([]);
  const form = useForm({
    initialValues: {
      name: profile?.name ?? '',
      template_engine_preset: profile?.template_engine_preset ?? 'none',
    },
  });
  const save = form.onSubmit(async (values) => {
    setProblems([]);
    const body = {
      name: values.name.trim(),
      template_engine_preset:
        values.template_engine_preset === 'none'
          ? null
          : (values.template_engine_preset as NonNullable<DynamicContentProfile['template_engine_preset']>),
    };
    try {
      const saved = await saveProfile(workspaceId, profile, body);
      await queryClient.invalidateQueries({ queryKey: dynamicContentKeys.kind(workspaceId, 'profiles') });
      notifications.show({ message: `${saved.name} saved` });
      onClose();
    } catch (error) {
      setProblems(showApiErrors(form, error, ['name', 'template_engine_preset']));
    }
  });
  return (
    <Modal opened onClose={onClose} title={profile ? profile.name : 'New dynamic content profile'}>
      <form onSubmit={save} noValidate>
        {problems.length > 0 && (
          <Alert color="red" mb="md" role="alert">
            {problems.join(' ')}
          </Alert>
        )}
        <TextInput
          label="Name"
          description="Usually the sending platform, e.g. Braze"
          required
          mb="sm"
          readOnly={readOnly}
          data-autofocus
          {...form.getInputProps('name')}
        />
        <Select
          label="Template engine preset"
          description="Lets conditionals be built with the preset picker in this platform's syntax"
          data={presetOptions}
          allowDeselect={false}
          readOnly={readOnly}
          mb="md"
          {...form.getInputProps('template_engine_preset')}
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {readOnly ? 'Close' : 'Cancel'}
          </Button>
          {!readOnly && (
            <Button type="submit" loading={form.submitting}>
              Save
            </Button>
          )}
        </Group>
      </form>
    </Modal>
  );
}
