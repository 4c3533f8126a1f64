import {
  Alert,
  Button,
  Code,
  CopyButton,
  Fieldset,
  Group,
  Modal,
  Stack,
  Text,
  TextInput,
  Tooltip,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useCan } from '../../app/session.ts';
import { CollectionPanel } from '../../shared/CollectionPanel.tsx';
import { monospaceInput } from '../../shared/monospace.ts';
import { showNestedApiErrors } from '../../shared/nested-form-errors.ts';
import {
  allProfilesQuery,
  type DynamicContentProfile,
  deleteTag,
  dynamicContentKeys,
  type PersonalizationTag,
  saveTag,
  tagListQuery,
} from './dynamic-content-api.ts';

/** Personalization tags: a recipient's data (first name…) placed in text, written per platform on export. */
export function PersonalizationTagsPanel({ workspaceId }: { workspaceId: number }) {
  const can = useCan();
  const [page, setPage] = useState(1);
  const query = useQuery(tagListQuery(workspaceId, page));
  const profiles = useQuery(allProfilesQuery(workspaceId));
  const profileNames = new Map((profiles.data?.results ?? []).map((profile) => [profile.id, profile.name]));
  return (
    <CollectionPanel
      noun="personalization tag"
      description="A personalization tag stands for something about the recipient, e.g. their first name. Text holds its token; previews show the example value; an export writes the value of its dynamic content profile, or the default value."
      query={query}
      onPage={setPage}
      queryKey={dynamicContentKeys.kind(workspaceId, 'tags')}
      headers={['Label', 'Token', 'Example', 'Per profile']}
      cells={(tag) => [
        <Text key="label" fw={500}>
          {tag.label}
        </Text>,
        <Group key="token" gap={4} wrap="nowrap">
          <Code>{tag.token}</Code>
          <CopyButton value={tag.token}>
            {({ copied, copy }) => (
              <Tooltip label={copied ? 'Copied' : 'Copy the token'}>
                <Button
                  size="compact-xs"
                  variant="subtle"
                  onClick={copy}
                  aria-label={`Copy the token of ${tag.label}`}
                >
                  {copied ? 'Copied' : 'Copy'}
                </Button>
              </Tooltip>
            )}
          </CopyButton>
        </Group>,
        tag.example_value,
        <Stack key="profiles" gap={2}>
          {Object.entries(tag.dynamic_content_profile_values).map(([profileId, output]) => (
            <Text key={profileId} size="xs">
              {profileNames.get(profileId) ?? 'Profile'}: <Code>{output}</Code>
            </Text>
          ))}
        </Stack>,
      ]}
      nameOf={(tag) => tag.label}
      permissions={{
        create: can('create_personalization_tags'),
        update: can('update_personalization_tags'),
        delete: can('delete_personalization_tags'),
      }}
      renderForm={(tag, close) =>
        profiles.isPending ? null : (
          <TagForm
            workspaceId={workspaceId}
            tag={tag}
            profiles={profiles.data?.results ?? []}
            readOnly={tag !== null && !can('update_personalization_tags')}
            onClose={close}
          />
        )
      }
      deleteItem={(tag) => deleteTag(workspaceId, tag.id)}
      emptyHint="Create one for each recipient attribute your emails greet people with, e.g. First name."
    />
  );
}

function TagForm({
  workspaceId,
  tag,
  profiles,
  readOnly,
  onClose,
}: {
  workspaceId: number;
  tag: PersonalizationTag | null;
  profiles: DynamicContentProfile[];
  readOnly: boolean;
  onClose: () => void;
}) {
  const queryClient = useQueryClient();
  const [problems, setProblems] = useState<string[]>([]);
  const form = useForm({
    initialValues: {
      label: tag?.label ?? '',
      default_value: tag?.default_value ?? '',
      example_value: tag?.example_value ?? '',
      dynamic_content_profile_values: Object.fromEntries(
        profiles.map((profile) => [profile.id, tag?.dynamic_content_profile_values[profile.id] ?? '']),
      ) as Record<string, string>,
    },
  });
  const save = form.onSubmit(async (values) => {
    setProblems([]);
    const body = {
      ...values,
      label: values.label.trim(),
      // A profile left empty uses the default value.
      dynamic_content_profile_values: Object.fromEntries(
        Object.entries(values.dynamic_content_profile_values).filter(([, output]) => output !== ''),
      ),
    };
    try {
      const saved = await saveTag(workspaceId, tag, body);
      await queryClient.invalidateQueries({ queryKey: dynamicContentKeys.kind(workspaceId, 'tags') });
      notifications.show({ message: `${saved.label} saved: its token is ${saved.token}` });
      onClose();
    } catch (error) {
      setProblems(
        showNestedApiErrors(form, error, [
          'label',
          'default_value',
          'example_value',
          'dynamic_content_profile_values',
        ]),
      );
    }
  });
  return (
    <Modal opened onClose={onClose} title={tag ? tag.label : 'New personalization tag'} size="lg">
      <form onSubmit={save} noValidate>
        <Stack>
          {problems.length > 0 && (
            <Alert color="red" role="alert">
              {problems.join(' ')}
            </Alert>
          )}
          {tag && (
            <Text size="sm">
              Token: <Code>{tag.token}</Code> (what text holds where the tag goes)
            </Text>
          )}
          <TextInput
            label="Label"
            required
            readOnly={readOnly}
            data-autofocus
            {...form.getInputProps('label')}
          />
          <TextInput
            label="Example value"
            description="Shown in previews, e.g. Ada"
            readOnly={readOnly}
            {...form.getInputProps('example_value')}
          />
          <TextInput
            label="Default value"
            description="Exported when the export has no profile, or this tag has no value for it"
            styles={monospaceInput}
            readOnly={readOnly}
            {...form.getInputProps('default_value')}
          />
          {profiles.length > 0 && (
            <Fieldset legend="Output per dynamic content profile" variant="filled">
              <Stack gap="xs">
                {profiles.map((profile) => (
                  <TextInput
                    key={profile.id}
                    label={profile.name}
                    placeholder="e.g. {{ first_name }}"
                    styles={monospaceInput}
                    readOnly={readOnly}
                    {...form.getInputProps(`dynamic_content_profile_values.${profile.id}`)}
                  />
                ))}
              </Stack>
            </Fieldset>
          )}
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
        </Stack>
      </form>
    </Modal>
  );
}
