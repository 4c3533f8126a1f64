import { locales } from '@letterset/core/locales';
import {
  Alert,
  Button,
  Group,
  Modal,
  MultiSelect,
  Select,
  Stack,
  Switch,
  Text,
  TextInput,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { showApiErrors } from '../../shared/form-errors.ts';
import { useOnlyChoice } from '../../shared/only-choice.ts';
import { AiBriefFields, useAiAvailable } from '../ai-generation/AiBriefFields.tsx';
import { brandProfilesQuery } from '../brand-profiles/brand-profiles-api.ts';
import { LayoutThumbnail } from '../layouts/LayoutThumbnail.tsx';
import { layoutsQuery } from '../layouts/layouts-api.ts';
import { createEmail, usableDesignSystemsQuery } from './emails-api.ts';

interface CreateEmailValues {
  name: string;
  email_design_system_id: string;
  brand_profile_id: string;
  layout_id: string;
  locales: string[];
  default_locale: string;
  create_with_ai: boolean;
  prompt: string;
  ai_agent_id: string;
}

const formFields = [
  'name',
  'email_design_system_id',
  'brand_profile_id',
  'layout_id',
  'locales',
  'default_locale',
  'prompt',
  'ai_agent_id',
] as const;

const localeOptions = locales.map((locale) => ({
  value: locale.code,
  label: `${locale.name} (${locale.code})`,
}));

/** A new email in a project: its design system, brand, starting layout and locales. */
export function CreateEmailModal({
  workspaceId,
  projectId,
  opened,
  onClose,
  onCreated,
}: {
  workspaceId: number;
  projectId: number;
  opened: boolean;
  onClose: () => void;
  onCreated: (emailId: number) => void;
}) {
  const [otherErrors, setOtherErrors] = useState<string[]>([]);
  const form = useForm<CreateEmailValues>({
    initialValues: {
      name: '',
      email_design_system_id: '',
      brand_profile_id: '',
      layout_id: '',
      locales: ['en-US'],
      default_locale: 'en-US',
      create_with_ai: false,
      prompt: '',
      ai_agent_id: '',
    },
    validate: {
      name: (value) => (value.trim() ? null : 'Enter a name'),
      email_design_system_id: (value) => (value ? null : 'Choose a design system'),
      locales: (value) => (value.length > 0 ? null : 'Choose at least one locale'),
      default_locale: (value, values) =>
        values.locales.includes(value) ? null : 'The default locale must be one of the locales',
      prompt: (value, values) =>
        !values.create_with_ai || value.trim() ? null : 'Describe the email to write',
    },
  });
  const designSystemId = Number(form.values.email_design_system_id) || null;
  const designSystems = useQuery({ ...usableDesignSystemsQuery(workspaceId), enabled: opened });
  const brandProfiles = useQuery({
    ...brandProfilesQuery(workspaceId, designSystemId ?? 0),
    enabled: opened && designSystemId !== null,
  });
  const layouts = useQuery({
    ...layoutsQuery(workspaceId, designSystemId ?? 0),
    enabled: opened && designSystemId !== null,
  });
  const designSystemChoices = designSystems.data?.results.map((system) => ({
    value: String(system.id),
    label: system.name,
  }));
  useOnlyChoice(designSystemChoices, form.values.email_design_system_id, (value) =>
    form.setFieldValue('email_design_system_id', value),
  );
  const chosenSystem = designSystems.data?.results.find((system) => system.id === designSystemId);
  // An optional brand profile stays "None" unless chosen; a required one with one option is filled in.
  useOnlyChoice(
    chosenSystem?.require_brand_profile_for_use
      ? brandProfiles.data?.results.map((profile) => ({ value: String(profile.id) }))
      : undefined,
    form.values.brand_profile_id,
    (value) => form.setFieldValue('brand_profile_id', value),
  );
  const layoutsById = new Map((layouts.data?.results ?? []).map((layout) => [layout.id, layout]));
  const chosenLayout = layoutsById.get(Number(form.values.layout_id));
  const aiAvailable = useAiAvailable();

  const queryClient = useQueryClient();
  const create = useMutation({
    mutationFn: (values: CreateEmailValues) =>
      createEmail(workspaceId, {
        name: values.name.trim(),
        project_id: projectId,
        email_design_system_id: Number(values.email_design_system_id),
        brand_profile_id: values.brand_profile_id ? Number(values.brand_profile_id) : null,
        ...(values.layout_id ? { layout_id: Number(values.layout_id) } : {}),
        locales: values.locales as never,
        default_locale: values.default_locale as never,
        ...(values.create_with_ai
          ? {
              create_with_ai: true,
              prompt: values.prompt.trim(),
              ai_agent_id: values.ai_agent_id ? Number(values.ai_agent_id) : null,
            }
          : {}),
      }),
    onSuccess: (email) => {
      // The workspace's lists and counts of emails (the project's list, Get started) include it now.
      void queryClient.invalidateQueries({ queryKey: ['workspaces', workspaceId, 'emails'] });
      onCreated(email.id);
    },
    onError: (error) => setOtherErrors(showApiErrors(form, error, formFields)),
  });

  return (
    <Modal opened={opened} onClose={onClose} title="New email" size="lg">
      <form
        onSubmit={form.onSubmit((values) => {
          setOtherErrors([]);
          create.mutate(values);
        })}
      >
        <Stack>
          {otherErrors.length > 0 && (
            <Alert color="red" role="alert">
              {otherErrors.join(' ')}
            </Alert>
          )}
          <TextInput label="Name" withAsterisk data-autofocus {...form.getInputProps('name')} />
          <Select
            label="Design system"
            withAsterisk
            searchable
            allowDeselect={false}
            placeholder={designSystems.isPending ? 'Loading design systems…' : 'Choose a design system'}
            data={designSystemChoices ?? []}
            {...form.getInputProps('email_design_system_id')}
            onChange={(value) => {
              form.setFieldValue('email_design_system_id', value ?? '');
              form.setFieldValue('brand_profile_id', '');
              form.setFieldValue('layout_id', '');
            }}
          />
          <Select
            label="Brand profile"
            withAsterisk={chosenSystem?.require_brand_profile_for_use === true}
            clearable
            disabled={designSystemId === null}
            placeholder={chosenSystem?.require_brand_profile_for_use ? 'Choose a brand profile' : 'None'}
            data={(brandProfiles.data?.results ?? []).map((profile) => ({
              value: String(profile.id),
              label: profile.name,
            }))}
            {...form.getInputProps('brand_profile_id')}
            onChange={(value) => form.setFieldValue('brand_profile_id', value ?? '')}
          />
          <Select
            label="Start from layout"
            clearable
            disabled={designSystemId === null}
            placeholder="Blank email"
            description="Without a layout the email starts with its container alone."
            data={(layouts.data?.results ?? []).map((layout) => ({
              value: String(layout.id),
              label: layout.name,
            }))}
            renderOption={({ option }) => {
              const layout = layoutsById.get(Number(option.value));
              return (
                <Group gap="sm" wrap="nowrap">
                  {layout && <LayoutThumbnail workspaceId={workspaceId} layout={layout} width={72} />}
                  <Text size="sm">{option.label}</Text>
                </Group>
              );
            }}
            {...form.getInputProps('layout_id')}
            onChange={(value) => {
              form.setFieldValue('layout_id', value ?? '');
              // A layout's values are kept per locale: start with its locales (its first is its default).
              const layoutLocales = layoutsById.get(Number(value))?.locales ?? [];
              if (layoutLocales.length > 0) {
                form.setFieldValue('locales', [...layoutLocales]);
                form.setFieldValue('default_locale', layoutLocales[0] ?? 'en-US');
              }
            }}
          />
          {chosenLayout && <LayoutThumbnail workspaceId={workspaceId} layout={chosenLayout} width={200} />}
          <Switch
            label="Write it with AI"
            description={
              form.values.layout_id
                ? 'AI writes the values of the layout’s sections from your brief'
                : 'AI chooses the sections from the design system and writes their values from your brief'
            }
            disabled={aiAvailable === false && !form.values.create_with_ai}
            {...form.getInputProps('create_with_ai', { type: 'checkbox' })}
          />
          {form.values.create_with_ai && (
            <AiBriefFields
              workspaceId={workspaceId}
              briefLabel="Brief"
              briefPlaceholder="Build a travel email showcasing our Paris, London and Rome destinations."
              prompt={form.getInputProps('prompt')}
              agent={{
                ...form.getInputProps('ai_agent_id'),
                onChange: (value: string | null) => form.setFieldValue('ai_agent_id', value ?? ''),
              }}
            />
          )}
          <MultiSelect
            label="Locales"
            withAsterisk
            searchable
            data={localeOptions}
            {...form.getInputProps('locales')}
          />
          <Select
            label="Default locale"
            withAsterisk
            data={localeOptions.filter((option) => form.values.locales.includes(option.value))}
            {...form.getInputProps('default_locale')}
            onChange={(value) => form.setFieldValue('default_locale', value ?? '')}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={create.isPending}>
              {form.values.create_with_ai ? 'Create with AI' : 'Create email'}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
