import type { FieldDefinition } from '@letterset/core';
import {
  Accordion,
  ActionIcon,
  Alert,
  Badge,
  Button,
  Group,
  Menu,
  Modal,
  NumberInput,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  Table,
  Text,
  Textarea,
  TextInput,
  VisuallyHidden,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconDots } from '@tabler/icons-react';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../../app/api.ts';
import { useCan } from '../../app/session.ts';
import { ApiError, errorMessage, unwrap } from '../../shared/api-error.ts';
import { confirmDestructive } from '../../shared/confirm.tsx';
import { EmptyState } from '../../shared/EmptyState.tsx';
import { ListPagination } from '../../shared/ListPagination.tsx';
import { monospaceInput } from '../../shared/monospace.ts';
import { QueryState } from '../../shared/QueryState.tsx';
import { type Component, componentListQuery } from '../component-builder/component-builder-api.ts';
import type { DesignSystem } from '../design-systems/design-systems-api.ts';
import { parseTokens } from '../design-systems/TokensAndStylesPanel.tsx';
import {
  type BrandProfile,
  type FieldOverrideDraft,
  type OverridesDraft,
  overrideProblems,
  overridesBody,
  overridesDraft,
} from './brand-overrides.ts';

const brandProfileKeys = (workspaceId: number, systemId: number) =>
  ['workspaces', workspaceId, 'design-systems', systemId, 'brand-profiles'] as const;

/** A design system's brand profiles: per-brand tokens, hidden components and field overrides. */
export function BrandProfilesPanel({
  workspaceId,
  system,
  editable,
}: {
  workspaceId: number;
  system: DesignSystem;
  editable: boolean;
}) {
  const can = useCan();
  const queryClient = useQueryClient();
  const [page, setPage] = useState(1);
  const [editing, setEditing] = useState<BrandProfile | 'new' | null>(null);
  const query = useQuery({
    queryKey: [...brandProfileKeys(workspaceId, system.id), page],
    queryFn: () =>
      unwrap(
        api.GET(
          '/api/v1/workspaces/{workspace_id}/email_design_systems/{email_design_system_id}/brand_profiles',
          {
            params: {
              path: { workspace_id: workspaceId, email_design_system_id: system.id },
              query: { page, per: 20 },
            },
          },
        ),
      ),
    placeholderData: keepPreviousData,
  });
  const canChange = editable && can('update_brand_profiles');

  const remove = async (profile: BrandProfile) => {
    const confirmed = await confirmDestructive({
      title: `Delete ${profile.name}?`,
      message: 'Emails made with this brand fall back to the design system as it is. This cannot be undone.',
      confirmLabel: 'Delete brand profile',
    });
    if (!confirmed) return;
    try {
      await unwrap(
        api.DELETE(
          '/api/v1/workspaces/{workspace_id}/email_design_systems/{email_design_system_id}/brand_profiles/{id}',
          {
            params: {
              path: { workspace_id: workspaceId, email_design_system_id: system.id, id: profile.id },
            },
          },
        ),
      );
      await queryClient.invalidateQueries({ queryKey: brandProfileKeys(workspaceId, system.id) });
      notifications.show({ message: `${profile.name} deleted` });
    } catch (error) {
      notifications.show({ color: 'red', title: 'Not deleted', message: errorMessage(error) });
    }
  };

  return (
    <Stack>
      <Group justify="space-between" align="flex-start">
        <Text size="sm" c="dimmed" maw={640}>
          A brand profile adapts this design system to one brand: token overrides (merged over the system's),
          components hidden for the brand, and field overrides (default value, label, hidden in the editor or
          from AI).
        </Text>
        {editable && can('create_brand_profiles') && (
          <Button onClick={() => setEditing('new')}>New brand profile</Button>
        )}
      </Group>
      <QueryState
        query={query}
        isEmpty={(data) => data.results.length === 0}
        empty={
          <EmptyState
            title="No brand profiles"
            hint="Emails use the design system as it is. Add a profile per brand that needs its own colours or defaults."
            action={
              editable &&
              can('create_brand_profiles') && (
                <Button variant="light" onClick={() => setEditing('new')}>
                  Create the first brand profile
                </Button>
              )
            }
          />
        }
      >
        {(data) => (
          <>
            <Table verticalSpacing="sm" highlightOnHover>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Name</Table.Th>
                  <Table.Th>Overrides</Table.Th>
                  <Table.Th w={48}>
                    <VisuallyHidden>Actions</VisuallyHidden>
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {data.results.map((profile) => (
                  <Table.Tr key={profile.id}>
                    <Table.Td fw={500}>{profile.name}</Table.Td>
                    <Table.Td>
                      <Text size="sm">
                        {Object.keys(profile.design_tokens).length} token groups ·{' '}
                        {profile.component_overrides.filter((override) => override.hidden).length} hidden
                        components ·{' '}
                        {profile.component_overrides.reduce(
                          (sum, override) => sum + override.field_overrides.length,
                          0,
                        )}{' '}
                        field overrides
                      </Text>
                    </Table.Td>
                    <Table.Td>
                      <Menu position="bottom-end">
                        <Menu.Target>
                          <ActionIcon
                            variant="subtle"
                            color="gray"
                            aria-label={`Actions for ${profile.name}`}
                          >
                            <IconDots size={18} />
                          </ActionIcon>
                        </Menu.Target>
                        <Menu.Dropdown>
                          <Menu.Item onClick={() => setEditing(profile)}>
                            {canChange ? 'Edit' : 'View'}
                          </Menu.Item>
                          {editable && can('delete_brand_profiles') && (
                            <Menu.Item color="red" onClick={() => remove(profile)}>
                              Delete
                            </Menu.Item>
                          )}
                        </Menu.Dropdown>
                      </Menu>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
            <ListPagination pagination={data.pagination} onPage={setPage} />
          </>
        )}
      </QueryState>
      {editing !== null && (
        <BrandProfileForm
          workspaceId={workspaceId}
          system={system}
          profile={editing === 'new' ? null : editing}
          readOnly={editing !== 'new' && !canChange}
          onClose={() => setEditing(null)}
        />
      )}
    </Stack>
  );
}

function BrandProfileForm({
  workspaceId,
  system,
  profile,
  readOnly,
  onClose,
}: {
  workspaceId: number;
  system: DesignSystem;
  profile: BrandProfile | null;
  readOnly: boolean;
  onClose: () => void;
}) {
  const queryClient = useQueryClient();
  const componentsQuery = useQuery(componentListQuery(workspaceId, system.id));
  const [name, setName] = useState(profile?.name ?? '');
  const [tokens, setTokens] = useState(JSON.stringify(profile?.design_tokens ?? {}, null, 2));
  const [overrides, setOverrides] = useState<OverridesDraft>(() =>
    overridesDraft(profile?.component_overrides ?? []),
  );
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const [targetProblems, setTargetProblems] = useState<Record<string, string[]>>({});
  const [problems, setProblems] = useState<string[]>([]);
  const [saving, setSaving] = useState(false);
  const parsedTokens = parseTokens(tokens);

  const setComponent = (componentId: number, change: Partial<OverridesDraft[number]>) =>
    setOverrides((current) => ({
      ...current,
      [componentId]: { hidden: false, fields: {}, ...current[componentId], ...change },
    }));
  const setField = (componentId: number, variable: string, change: FieldOverrideDraft) =>
    setOverrides((current) => {
      const component = current[componentId] ?? { hidden: false, fields: {} };
      return {
        ...current,
        [componentId]: {
          ...component,
          fields: { ...component.fields, [variable]: { ...component.fields[variable], ...change } },
        },
      };
    });

  const save = async () => {
    if ('problem' in parsedTokens) return;
    setSaving(true);
    setProblems([]);
    const { overrides: componentOverrides, positions } = overridesBody(overrides);
    const body = {
      name: name.trim(),
      design_tokens: parsedTokens.tokens,
      component_overrides: componentOverrides,
    };
    try {
      if (profile) {
        await unwrap(
          api.PATCH(
            '/api/v1/workspaces/{workspace_id}/email_design_systems/{email_design_system_id}/brand_profiles/{id}',
            {
              params: {
                path: { workspace_id: workspaceId, email_design_system_id: system.id, id: profile.id },
              },
              body,
            },
          ),
        );
      } else {
        await unwrap(
          api.POST(
            '/api/v1/workspaces/{workspace_id}/email_design_systems/{email_design_system_id}/brand_profiles',
            {
              params: { path: { workspace_id: workspaceId, email_design_system_id: system.id } },
              body,
            },
          ),
        );
      }
      await queryClient.invalidateQueries({ queryKey: brandProfileKeys(workspaceId, system.id) });
      notifications.show({ message: `${body.name} saved` });
      onClose();
    } catch (error) {
      if (error instanceof ApiError && error.status === 422) {
        setErrors(error.fieldErrors);
        const mapped = overrideProblems(
          Object.fromEntries(
            Object.entries(error.fieldErrors).filter(([path]) => path.startsWith('component_overrides')),
          ),
          positions,
        );
        setTargetProblems(mapped.byTarget);
        const others = Object.entries(error.fieldErrors)
          .filter(
            ([path]) =>
              !['name', 'design_tokens'].includes(path.split('.')[0] ?? '') &&
              !path.startsWith('component_overrides'),
          )
          .map(([path, messages]) => `${path} ${messages.join('; ')}`);
        setProblems([
          ...mapped.rest,
          ...others,
          ...(Object.keys(error.fieldErrors).length === 0 ? [error.message] : []),
        ]);
      } else {
        setProblems([errorMessage(error)]);
      }
    } finally {
      setSaving(false);
    }
  };

  const tokenError =
    'problem' in parsedTokens
      ? `Design tokens ${parsedTokens.problem}`
      : Object.entries(errors)
          .filter(([path]) => path.startsWith('design_tokens'))
          .map(([, messages]) => messages.join('; '))
          .join('; ') || undefined;

  return (
    <Modal opened onClose={onClose} title={profile ? profile.name : 'New brand profile'} size="xl">
      <Stack>
        {problems.length > 0 && (
          <Alert color="red" role="alert">
            {problems.join(' ')}
          </Alert>
        )}
        <TextInput
          label="Name"
          required
          value={name}
          readOnly={readOnly}
          onChange={(event) => setName(event.currentTarget.value)}
          error={errors.name?.join('; ')}
          data-autofocus
        />
        <Textarea
          label="Design token overrides (JSON)"
          description="Merged over the design system's tokens key by key, e.g. { &quot;colors&quot;: { &quot;primary&quot;: &quot;#D6336C&quot; } }"
          styles={monospaceInput}
          autosize
          minRows={3}
          maxRows={16}
          value={tokens}
          readOnly={readOnly}
          onChange={(event) => setTokens(event.currentTarget.value)}
          error={tokenError}
        />
        <Text fw={500}>Components</Text>
        <QueryState
          query={componentsQuery}
          isEmpty={(data) => data.results.length === 0}
          empty={<Text c="dimmed">The design system has no components yet.</Text>}
        >
          {(data) => (
            <Accordion variant="separated">
              {data.results.map((component) => (
                <ComponentOverrides
                  key={component.id}
                  component={component}
                  draft={overrides[component.id]}
                  readOnly={readOnly}
                  problems={targetProblems}
                  onHidden={(hidden) => setComponent(component.id, { hidden })}
                  onField={(variable, change) => setField(component.id, variable, change)}
                />
              ))}
            </Accordion>
          )}
        </QueryState>
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {readOnly ? 'Close' : 'Cancel'}
          </Button>
          {!readOnly && (
            <Button onClick={save} loading={saving} disabled={'problem' in parsedTokens}>
              Save
            </Button>
          )}
        </Group>
      </Stack>
    </Modal>
  );
}

const visibilityOptions = [
  { value: 'inherit', label: 'As the component' },
  { value: 'true', label: 'Hidden' },
  { value: 'false', label: 'Shown' },
];

function ComponentOverrides({
  component,
  draft,
  readOnly,
  problems,
  onHidden,
  onField,
}: {
  component: Component;
  draft: OverridesDraft[number] | undefined;
  readOnly: boolean;
  problems: Record<string, string[]>;
  onHidden: (hidden: boolean) => void;
  onField: (variable: string, change: FieldOverrideDraft) => void;
}) {
  const fieldCount = Object.values(draft?.fields ?? {}).filter((field) =>
    Object.values(field).some((value) => value !== undefined && value !== ''),
  ).length;
  const componentProblems = problems[String(component.id)];
  return (
    <Accordion.Item value={String(component.id)}>
      <Accordion.Control>
        <Group gap="xs">
          <Text size="sm" fw={500}>
            {component.label}
          </Text>
          {draft?.hidden && (
            <Badge size="xs" color="gray">
              Hidden
            </Badge>
          )}
          {fieldCount > 0 && <Badge size="xs">{fieldCount} overridden</Badge>}
        </Group>
      </Accordion.Control>
      <Accordion.Panel>
        <Stack gap="sm">
          {!component.container && (
            <Switch
              label="Hide this component for the brand"
              checked={draft?.hidden ?? false}
              disabled={readOnly}
              onChange={(event) => onHidden(event.currentTarget.checked)}
            />
          )}
          {componentProblems && (
            <Text size="xs" c="red">
              {componentProblems.join('; ')}
            </Text>
          )}
          {component.field_definitions.length === 0 && (
            <Text size="sm" c="dimmed">
              No fields.
            </Text>
          )}
          {(component.field_definitions as FieldDefinition[]).map((field) => {
            const override = draft?.fields[field.liquid_variable] ?? {};
            const fieldProblems = problems[`${component.id}:${field.liquid_variable}`];
            const visibility = (value: boolean | undefined) =>
              value === undefined ? 'inherit' : String(value);
            const fromVisibility = (value: string | null) =>
              value === 'true' ? true : value === 'false' ? false : undefined;
            return (
              <Stack
                key={field.liquid_variable}
                gap={4}
                p="xs"
                style={{ border: '1px solid var(--mantine-color-default-border)', borderRadius: 4 }}
              >
                <Text size="sm" fw={500}>
                  {field.label}{' '}
                  <Text span size="xs" c="dimmed" ff="monospace">
                    {field.liquid_variable}
                  </Text>
                </Text>
                <SimpleGrid cols={{ base: 1, sm: 2 }}>
                  <TextInput
                    size="xs"
                    label="Label"
                    placeholder={field.label}
                    value={override.label ?? ''}
                    readOnly={readOnly}
                    onChange={(event) =>
                      onField(field.liquid_variable, { label: event.currentTarget.value || undefined })
                    }
                  />
                  <DefaultOverride
                    field={field}
                    value={override.default_value}
                    readOnly={readOnly}
                    onChange={(default_value) => onField(field.liquid_variable, { default_value })}
                  />
                  <Select
                    size="xs"
                    label="In the editor"
                    data={visibilityOptions}
                    allowDeselect={false}
                    readOnly={readOnly}
                    value={visibility(override.hidden_in_editor)}
                    onChange={(value) =>
                      onField(field.liquid_variable, { hidden_in_editor: fromVisibility(value) })
                    }
                  />
                  <Select
                    size="xs"
                    label="For AI"
                    data={visibilityOptions}
                    allowDeselect={false}
                    readOnly={readOnly}
                    value={visibility(override.hidden_from_ai)}
                    onChange={(value) =>
                      onField(field.liquid_variable, { hidden_from_ai: fromVisibility(value) })
                    }
                  />
                </SimpleGrid>
                {fieldProblems && (
                  <Text size="xs" c="red" role="alert">
                    {fieldProblems.join('; ')}
                  </Text>
                )}
              </Stack>
            );
          })}
        </Stack>
      </Accordion.Panel>
    </Accordion.Item>
  );
}

function DefaultOverride({
  field,
  value,
  readOnly,
  onChange,
}: {
  field: FieldDefinition;
  value: string | number | boolean | undefined;
  readOnly: boolean;
  onChange: (value: string | number | boolean | undefined) => void;
}) {
  const label = 'Default value';
  if (field.type === 'number') {
    return (
      <NumberInput
        size="xs"
        label={label}
        placeholder={String(field.default_value)}
        value={typeof value === 'number' ? value : ''}
        readOnly={readOnly}
        onChange={(next) => onChange(typeof next === 'number' ? next : undefined)}
      />
    );
  }
  if (field.type === 'boolean') {
    return (
      <Select
        size="xs"
        label={label}
        data={[
          { value: 'inherit', label: `As the component (${field.default_value ? 'on' : 'off'})` },
          { value: 'true', label: 'On' },
          { value: 'false', label: 'Off' },
        ]}
        allowDeselect={false}
        readOnly={readOnly}
        value={value === undefined ? 'inherit' : String(value)}
        onChange={(next) => onChange(next === 'true' ? true : next === 'false' ? false : undefined)}
      />
    );
  }
  return (
    <TextInput
      size="xs"
      label={label}
      placeholder={String(field.default_value)}
      value={typeof value === 'string' ? value : ''}
      readOnly={readOnly}
      onChange={(event) => onChange(event.currentTarget.value || undefined)}
    />
  );
}
