import { Badge, Group, Modal, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useCan } from '../../app/session.ts';
import { CollectionPanel } from '../../shared/CollectionPanel.tsx';
import { FormActions, FormProblems } from '../../shared/FormParts.tsx';
import { monospaceInput } from '../../shared/monospace.ts';
import { showNestedApiErrors } from '../../shared/nested-form-errors.ts';
import { RowsEditor } from '../../shared/RowsEditor.tsx';
import {
  deleteLinkTrackingProfile,
  dynamicContentKeys,
  type LinkTrackingProfile,
  linkTrackingListQuery,
  saveLinkTrackingProfile,
} from './dynamic-content-api.ts';

type Parameter = LinkTrackingProfile['parameters'][number];
type ParameterType = Parameter['type'];

const parameterTypes: { value: ParameterType; label: string }[] = [
  { value: 'fixed_value', label: 'Fixed value' },
  { value: 'editor_field_value', label: 'Entered per link' },
  { value: 'editor_global_field_value', label: 'Entered once per email' },
];
const typeLabel = Object.fromEntries(parameterTypes.map((type) => [type.value, type.label]));

/** Link tracking profiles: query parameters (utm_…) added to every link of the emails using one. */
export function LinkTrackingPanel({ workspaceId }: { workspaceId: number }) {
  const can = useCan();
  const [page, setPage] = useState(1);
  const query = useQuery(linkTrackingListQuery(workspaceId, page));
  return (
    <CollectionPanel
      noun="link tracking profile"
      description="A link tracking profile adds query parameters to every http(s) link of the emails that use it: a fixed value, a value entered per link, or one entered once per email. A custom template (Liquid) can build the final URL instead, e.g. to go through a click tracker."
      query={query}
      onPage={setPage}
      queryKey={dynamicContentKeys.kind(workspaceId, 'link-tracking')}
      headers={['Name', 'Parameters', 'Custom template']}
      cells={(profile) => [
        <Text key="name" fw={500}>
          {profile.name}
        </Text>,
        <Group key="parameters" gap={4}>
          {profile.parameters.map((parameter) => (
            <Badge key={parameter.parameter} variant="light" size="sm" tt="none">
              {parameter.type === 'fixed_value'
                ? `${parameter.parameter}=${parameter.value}`
                : `${parameter.parameter} (${typeLabel[parameter.type]?.toLowerCase()})`}
            </Badge>
          ))}
        </Group>,
        profile.custom_template ? 'Yes' : 'No',
      ]}
      nameOf={(profile) => profile.name}
      permissions={{
        create: can('create_link_tracking_profiles'),
        update: can('update_link_tracking_profiles'),
        delete: can('delete_link_tracking_profiles'),
      }}
      renderForm={(profile, close) => (
        <LinkTrackingForm
          workspaceId={workspaceId}
          profile={profile}
          readOnly={profile !== null && !can('update_link_tracking_profiles')}
          onClose={close}
        />
      )}
      deleteItem={(profile) => deleteLinkTrackingProfile(workspaceId, profile.id)}
      emptyHint="Create one to add utm_source, utm_campaign and the like to your emails' links."
    />
  );
}

interface ParameterRow {
  type: ParameterType;
  parameter: string;
  value: string;
}

function LinkTrackingForm({
  workspaceId,
  profile,
  readOnly,
  onClose,
}: {
  workspaceId: number;
  profile: LinkTrackingProfile | null;
  readOnly: boolean;
  onClose: () => void;
}) {
  const queryClient = useQueryClient();
  const [problems, setProblems] = useState<string[]>([]);
  const form = useForm({
    initialValues: {
      name: profile?.name ?? '',
      parameters: (profile?.parameters ?? []).map(
        (parameter): ParameterRow => ({ ...parameter, value: 'value' in parameter ? parameter.value : '' }),
      ),
      custom_template: profile?.custom_template ?? '',
    },
  });
  const save = form.onSubmit(async (values) => {
    setProblems([]);
    const body = {
      name: values.name.trim(),
      parameters: values.parameters.map(
        ({ type, parameter, value }): Parameter =>
          type === 'fixed_value' ? { type, parameter, value } : { type, parameter },
      ),
      custom_template: values.custom_template.trim() === '' ? null : values.custom_template,
    };
    try {
      const saved = await saveLinkTrackingProfile(workspaceId, profile, body);
      await queryClient.invalidateQueries({
        queryKey: dynamicContentKeys.kind(workspaceId, 'link-tracking'),
      });
      notifications.show({ message: `${saved.name} saved` });
      onClose();
    } catch (error) {
      setProblems(showNestedApiErrors(form, error, ['name', 'parameters', 'custom_template']));
    }
  });
  return (
    <Modal opened onClose={onClose} title={profile ? profile.name : 'New link tracking profile'} size="xl">
      <form onSubmit={save} noValidate>
        <Stack>
          <FormProblems problems={problems} />
          <TextInput
            label="Name"
            required
            readOnly={readOnly}
            data-autofocus
            {...form.getInputProps('name')}
          />
          <RowsEditor
            form={form}
            path="parameters"
            legend="Parameters"
            columns={[
              { key: 'type', label: 'Type', options: parameterTypes },
              { key: 'parameter', label: 'Parameter', placeholder: 'utm_source', monospace: true },
              {
                key: 'value',
                label: 'Value',
                placeholder: 'newsletter',
                when: (row) => row.type === 'fixed_value',
              },
            ]}
            newRow={() => ({ type: 'fixed_value', parameter: '', value: '' })}
            addLabel="Add parameter"
            readOnly={readOnly}
            emptyText="No parameters: links are left as they are (unless a custom template builds them)."
          />
          <Textarea
            label="Custom template (optional)"
            description="Liquid that outputs the final URL, over url, parameters, query and tracked_url, e.g. https://click.example.com/r?to={{ url | url_encode }}&{{ query }}"
            styles={monospaceInput}
            autosize
            minRows={2}
            readOnly={readOnly}
            {...form.getInputProps('custom_template')}
          />
          <FormActions
            readOnly={readOnly}
            onCancel={onClose}
            submitLabel="Save"
            submitting={form.submitting}
          />
        </Stack>
      </form>
    </Modal>
  );
}
