import type { FieldDefinition } from '@letterset/core';
import {
  Accordion,
  Badge,
  Box,
  Button,
  Fieldset,
  Grid,
  Group,
  Modal,
  NumberInput,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  Tabs,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { ApiError, errorMessage } from '../../shared/api-error.ts';
import { FormProblems } from '../../shared/FormParts.tsx';
import { monospaceInput } from '../../shared/monospace.ts';
import { showNestedApiErrors } from '../../shared/nested-form-errors.ts';
import { QueryState } from '../../shared/QueryState.tsx';
import { type Component, componentListQuery } from '../component-builder/component-builder-api.ts';
import type { DesignSystem } from '../design-systems/design-systems-api.ts';
import { CustomStylesRows } from '../design-tokens/CustomStylesRows.tsx';
import { parseTokens } from '../design-tokens/parse-tokens.ts';
import { TokenOverrideFields } from '../design-tokens/TokenOverrideFields.tsx';
import { BrandPreview } from './BrandPreview.tsx';
import {
  type BrandProfile,
  type FieldOverrideDraft,
  type OverridesDraft,
  overridesBody,
  overridesDraft,
  refusedSaveProblems,
} from './brand-overrides.ts';
import { useSaveBrandProfile } from './brand-profiles-api.ts';

/** A brand profile's dialog: its name, token overrides, and per component what the brand hides or changes. */
export function BrandProfileForm({
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
  const saving = useSaveBrandProfile(workspaceId, system.id);
  const componentsQuery = useQuery(componentListQuery(workspaceId, system.id));
  const [name, setName] = useState(profile?.name ?? '');
  const [tokens, setTokens] = useState(JSON.stringify(profile?.design_tokens ?? {}, null, 2));
  const [overrides, setOverrides] = useState<OverridesDraft>(() =>
    overridesDraft(profile?.component_overrides ?? []),
  );
  // Rows of label, name and CSS, as the design system's own custom styles are edited.
  const stylesForm = useForm({ initialValues: { custom_styles: profile?.custom_styles ?? [] } });
  const customStyles = stylesForm.values.custom_styles;
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const [targetProblems, setTargetProblems] = useState<Record<string, string[]>>({});
  const [problems, setProblems] = useState<string[]>([]);
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
    setProblems([]);
    const { overrides: componentOverrides, positions } = overridesBody(overrides);
    const fields = {
      name: name.trim(),
      design_tokens: parsedTokens.tokens,
      custom_styles: customStyles,
      component_overrides: componentOverrides,
    };
    try {
      await saving.mutateAsync({ existing: profile, fields });
      notifications.show({ message: `${fields.name} saved` });
      onClose();
    } catch (error) {
      if (error instanceof ApiError && error.status === 422) {
        setErrors(error.fieldErrors);
        showNestedApiErrors(stylesForm, error, ['custom_styles']);
        const placed = refusedSaveProblems(error.fieldErrors, error.message, positions);
        setTargetProblems(placed.byTarget);
        setProblems(placed.rest);
      } else {
        setProblems([errorMessage(error)]);
      }
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
    <Modal
      opened
      onClose={onClose}
      title={profile ? profile.name : 'New brand profile'}
      size="calc(100vw - 3rem)"
    >
      <Grid gap="xl">
        <Grid.Col span={{ base: 12, lg: 6 }}>
          <Stack>
            <FormProblems problems={problems} />
            <TextInput
              label="Name"
              required
              value={name}
              readOnly={readOnly}
              onChange={(event) => setName(event.currentTarget.value)}
              error={errors.name?.join('; ')}
              data-autofocus
            />
            <Fieldset legend="Design token overrides" variant="unstyled">
              <Tabs defaultValue="fields" keepMounted={false}>
                <Tabs.List>
                  <Tabs.Tab value="fields">Tokens</Tabs.Tab>
                  <Tabs.Tab value="json">Advanced (JSON)</Tabs.Tab>
                </Tabs.List>
                <Tabs.Panel value="fields" pt="sm">
                  {'problem' in parsedTokens ? (
                    <Text size="sm" c="red.9" role="alert">
                      {tokenError} Correct it in the Advanced (JSON) tab to edit the tokens here.
                    </Text>
                  ) : (
                    <Stack gap="xs">
                      <Text size="sm" c="dimmed">
                        Empty fields keep the design system’s value (shown greyed); what you fill in is the
                        brand’s.
                      </Text>
                      <TokenOverrideFields
                        baseTokens={system.design_tokens ?? {}}
                        overrides={parsedTokens.tokens}
                        readOnly={readOnly}
                        onChange={(next) => setTokens(JSON.stringify(next, null, 2))}
                      />
                      {tokenError && (
                        <Text size="sm" c="red.9" role="alert">
                          {tokenError}
                        </Text>
                      )}
                    </Stack>
                  )}
                </Tabs.Panel>
                <Tabs.Panel value="json" pt="sm">
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
                </Tabs.Panel>
              </Tabs>
            </Fieldset>
            <CustomStylesRows
              form={stylesForm}
              readOnly={readOnly}
              emptyText={`None: rich text uses the design system's ${system.custom_styles.length === 0 ? 'styles' : `styles (${system.custom_styles.map((style) => style.name).join(', ')})`}. A style with the same name as one of them replaces it for this brand.`}
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
                <Button onClick={save} loading={saving.isPending} disabled={'problem' in parsedTokens}>
                  Save
                </Button>
              )}
            </Group>
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, lg: 6 }}>
          {/* Beside the form on wide screens, so a token change shows on every component that reads it. */}
          <Box pos="sticky" top={0}>
            <BrandPreview
              workspaceId={workspaceId}
              designSystemId={system.id}
              brandProfile={{
                id: profile?.id ?? 0,
                name,
                design_tokens:
                  'problem' in parsedTokens ? (profile?.design_tokens ?? {}) : parsedTokens.tokens,
                component_overrides: overridesBody(overrides).overrides,
              }}
            />
          </Box>
        </Grid.Col>
      </Grid>
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
